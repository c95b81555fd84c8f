import { availableParallelism } from "node:os";
import { integerSetting } from "./lib/env.js";

/** Processes `pnpm start` runs (`PROCESSES`, default one per available core; 1: a single process, no supervisor). */
export function readProcesses(env: Record<string, string | undefined>): number {
  return integerSetting(env, "PROCESSES", availableParallelism(), 1, 1024);
}

/** Messages a child of the supervisor sends it once it serves (`ready`). */
export interface ChildReady {
  type: "agent-platform:ready";
  url?: string;
  bootstrap: { projectId: string; generated: boolean; apiKey?: string } | null;
}

export function isChildReady(message: unknown): message is ChildReady {
  return (message as ChildReady | null)?.type === "agent-platform:ready";
}
