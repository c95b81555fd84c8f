// One crash trial: sessions whose turns call a tool and then answer, run by a worker process that is killed with
// SIGKILL at random moments (during a model call, a tool call, between steps, during a commit) and started again.
// Afterwards every turn must have completed exactly once: `seq` contiguous, one user message, one tool use with one
// result, one answer, the turn ended normally. Shared by the seeded test and `pnpm chaos`.
import type { ChildProcess } from "node:child_process";

export interface ChaosWorld {
  /** The API (a process that stays up), e.g. `http://127.0.0.1:3000`, and a project it can write to. */
  apiUrl: string;
  projectId: string;
  apiKey: string;
  /** Starts a `ROLE=worker` process; resolves once it claims work. */
  startWorker(): Promise<ChildProcess>;
}

export interface TrialOptions {
  sessions: number;
  kills: number;
  /** Kills land this many milliseconds apart at most (each at a random point of the window). */
  killWindowMs: number;
}

export interface TrialResult {
  turns: number;
  kills: number;
  failures: string[];
}

/** A small deterministic PRNG (mulberry32): a seed replays a trial's kill schedule. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What the chaos model answers: a tool call to a user message, a final answer to a tool result, slowly at random. */
export function chaosReply(random: () => number) {
  return (request: { body: { messages?: { role?: string }[] } }) => {
    const last = request.body.messages?.at(-1)?.role;
    const delayMs = Math.floor(random() * 300);
    if (last === "tool") return { text: "Noted and done.", delayMs, chunkDelayMs: Math.floor(random() * 40) };
    return {
      delayMs,
      toolCalls: [{ name: "artifact_write", arguments: { name: "notes.md", content: "chaos" } }],
    };
  };
}

function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

async function api<T>(world: ChaosWorld, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${world.apiUrl}/v1/projects/${world.projectId}${path}`, {
    method,
    headers: { authorization: `Bearer ${world.apiKey}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

type Entry = { seq: number; id: string; type: string; stopReason?: string; toolUseId?: string };

async function readLog(world: ChaosWorld, sessionId: string): Promise<Entry[]> {
  const page = await api<{ data: Entry[]; hasMore: boolean }>(world, "GET", `/sessions/${sessionId}/events`);
  return page.data;
}

/** What is wrong with a finished session's log (empty: nothing). */
export function checkLog(sessionId: string, log: Entry[]): string[] {
  const problems: string[] = [];
  const count = (type: string) => log.filter((e) => e.type === type).length;
  if (log.some((e, i) => e.seq !== i + 1)) problems.push(`${sessionId}: seq not contiguous`);
  if (new Set(log.map((e) => e.id)).size !== log.length) problems.push(`${sessionId}: a repeated event id`);
  for (const [type, expected] of [
    ["user.message", 1],
    ["agent.tool_use", 1],
    ["agent.tool_result", 1],
    ["agent.message", 1],
    ["session.error", 0],
  ] as const) {
    if (count(type) !== expected) problems.push(`${sessionId}: ${count(type)} × ${type}, expected ${expected}`);
  }
  const use = log.find((e) => e.type === "agent.tool_use");
  const result = log.find((e) => e.type === "agent.tool_result");
  if (use && result && result.toolUseId !== use.id) problems.push(`${sessionId}: the tool result answers another use`);
  const last = log.at(-1);
  if (last?.type !== "session.status_idle" || last.stopReason !== "end_turn") {
    problems.push(`${sessionId}: ends with ${last?.type} ${last?.stopReason ?? ""}`);
  }
  return problems;
}

/**
 * Runs one trial with a worker of its own (started here, killed and restarted `kills` times, stopped at the end by
 * the caller through the returned process). Resolves when every session's turn has ended, or after `timeoutMs`.
 */
export async function runCrashTrial(
  world: ChaosWorld,
  random: () => number,
  options: TrialOptions,
  timeoutMs = 90_000,
): Promise<TrialResult & { worker: ChildProcess }> {
  const agent = await api<{ id: string }>(world, "POST", "/agents", {
    name: "Chaos agent",
    model: "openai-compatible/fake-model",
    tools: ["artifact_write"],
  });
  let worker = await world.startWorker();
  const sessions = await Promise.all(
    Array.from({ length: options.sessions }, (_, i) =>
      api<{ id: string }>(world, "POST", "/sessions", {
        agent: agent.id,
        events: [{ type: "user.message", content: [{ type: "text", text: `Task ${i}` }] }],
      }),
    ),
  );
  for (let k = 0; k < options.kills; k++) {
    await new Promise((r) => setTimeout(r, Math.floor(random() * options.killWindowMs)));
    await killHard(worker);
    worker = await world.startWorker();
  }
  const deadline = Date.now() + timeoutMs;
  const failures: string[] = [];
  for (const session of sessions) {
    for (;;) {
      const log = await readLog(world, session.id);
      const last = log.at(-1);
      if (last?.type === "session.status_idle" && last.stopReason) {
        failures.push(...checkLog(session.id, log));
        break;
      }
      if (Date.now() > deadline) {
        failures.push(`${session.id}: the turn did not end (last: ${last?.type})`);
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { turns: sessions.length, kills: options.kills, failures, worker };
}
