// Scenario 1: turns that call a tool and then answer.
import { checkCounts, checkLogShape, checkToolPairs } from "../log-checks.js";
import { marker } from "../model-router.js";
import type { Scenario } from "../scenario.js";
import { api, type ChaosWorld, type Entry, settledLog } from "../world.js";

/** What is wrong with a finished tool turn: one user message, one tool use with one result, one answer. */
export function checkToolTurn(sessionId: string, log: readonly Entry[]): string[] {
  return [
    ...checkLogShape(sessionId, log),
    ...checkCounts(sessionId, log, {
      "user.message": 1,
      "agent.tool_use": 1,
      "agent.tool_result": 1,
      "agent.message": 1,
    }),
    ...checkToolPairs(sessionId, log),
  ];
}

/** Sessions of an agent that calls a tool and then answers, each started with the message `<text> <i>`. */
export async function startToolSessions(world: ChaosWorld, sessions: number, text: string): Promise<string[]> {
  const agent = await api<{ id: string }>(world, "POST", "/agents", {
    name: "Chaos tool agent",
    model: "openai-compatible/fake-model",
    system: `You write notes. ${marker("tool")}`,
    tools: ["artifact_write"],
  });
  const created = await Promise.all(
    Array.from({ length: sessions }, (_, i) =>
      api<{ id: string }>(world, "POST", "/sessions", {
        agent: agent.id,
        events: [{ type: "user.message", content: [{ type: "text", text: `${text} ${i}` }] }],
      }),
    ),
  );
  return created.map((s) => s.id);
}

export function toolTurns(sessions: number): Scenario<{ sessions: string[] }> {
  return {
    name: "tool",
    unit: "turns",
    async start(world) {
      return { sessions: await startToolSessions(world, sessions, "Task") };
    },
    async check(world, handles, plan) {
      const failures: string[] = [];
      for (const id of handles.sessions) {
        const log = await settledLog(world, id, plan.deadline);
        failures.push(...(typeof log === "string" ? [log] : checkToolTurn(id, log)));
      }
      return { units: handles.sessions.length, failures };
    },
  };
}
