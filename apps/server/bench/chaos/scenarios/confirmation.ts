// Scenario 2: turns whose tool needs confirmation (`toolPermissions: always_ask`). While the worker is being killed the
// trial waits for the pending tool use and allows it, like an operator would (with an idempotency key, sometimes sent
// twice as a retrying client does); the turn then runs the tool and answers.
import { checkCounts, checkLogShape, checkToolPairs } from "../log-checks.js";
import { marker } from "../model-router.js";
import type { Scenario } from "../scenario.js";
import { api, type Entry, pollUntil, readLog, settledLog } from "../world.js";

/**
 * What is wrong with a finished confirmation turn: one tool use (asking for confirmation), one confirmation of it, one
 * result answering it, one answer.
 */
export function checkConfirmationTurn(sessionId: string, log: readonly Entry[]): string[] {
  const problems = [
    ...checkLogShape(sessionId, log),
    ...checkCounts(sessionId, log, {
      "user.message": 1,
      "agent.tool_use": 1,
      "user.tool_confirmation": 1,
      "agent.tool_result": 1,
      "agent.message": 1,
    }),
    ...checkToolPairs(sessionId, log),
  ];
  const use = log.find((e) => e.type === "agent.tool_use");
  const confirmation = log.find((e) => e.type === "user.tool_confirmation");
  if (use && use.requiresConfirmation !== true)
    problems.push(`${sessionId}: the tool use did not ask for confirmation`);
  if (use && confirmation && confirmation.toolUseId !== use.id) {
    problems.push(`${sessionId}: the confirmation answers another use`);
  }
  const result = log.find((e) => e.type === "agent.tool_result");
  if (confirmation && result && result.seq < confirmation.seq) problems.push(`${sessionId}: the tool ran unconfirmed`);
  if (result?.isError) problems.push(`${sessionId}: the confirmed tool failed`);
  return problems;
}

type Handles = { sessions: string[]; confirmed: Map<string, string> };

export function confirmationTurns(sessions: number): Scenario<Handles> {
  return {
    name: "confirm",
    unit: "turns",
    async start(world) {
      const agent = await api<{ id: string }>(world, "POST", "/agents", {
        name: "Chaos confirming agent",
        model: "openai-compatible/fake-model",
        system: `You write notes once allowed. ${marker("confirm")}`,
        tools: ["artifact_write"],
        toolPermissions: { artifact_write: "always_ask" },
      });
      const created = await Promise.all(
        Array.from({ length: sessions }, (_, i) =>
          api<{ id: string }>(world, "POST", "/sessions", {
            agent: agent.id,
            events: [{ type: "user.message", content: [{ type: "text", text: `Confirmed task ${i}` }] }],
          }),
        ),
      );
      return { sessions: created.map((s) => s.id), confirmed: new Map() };
    },
    async drive(world, handles, plan) {
      await Promise.all(
        handles.sessions.map(async (id) => {
          const use = await pollUntil(plan.deadline, async () => {
            const log = await readLog(world, id);
            const last = log.at(-1);
            if (last?.type !== "session.status_idle" || last.stopReason !== "requires_action") return undefined;
            return log.find((e) => e.type === "agent.tool_use" && e.requiresConfirmation === true);
          });
          if (!use) return; // the check reports the turn that never asked
          const times = plan.random() < 0.5 ? 2 : 1;
          for (let i = 0; i < times; i++) {
            await api(world, "POST", `/sessions/${id}/events`, {
              events: [
                {
                  type: "user.tool_confirmation",
                  toolUseId: use.id,
                  result: "allow",
                  idempotencyKey: `allow-${use.id}`,
                },
              ],
            });
          }
          handles.confirmed.set(id, use.id);
        }),
      );
    },
    async check(world, handles, plan) {
      const failures: string[] = [];
      for (const id of handles.sessions) {
        if (!handles.confirmed.has(id)) failures.push(`${id}: no tool use waited for confirmation`);
        const log = await settledLog(world, id, plan.deadline);
        failures.push(...(typeof log === "string" ? [log] : checkConfirmationTurn(id, log)));
      }
      return { units: handles.sessions.length, failures };
    },
  };
}
