// Scenario 3: a coordinator delegating in foreground to a subagent (a child session run by the same worker). Killed
// mid-delegation, the re-run must reuse the child session the tool use created, not start a second one.
import { checkReplyTurn } from "../log-checks.js";
import { DELEGATE_ROLE, echoAnswer, marker } from "../model-router.js";
import type { Scenario } from "../scenario.js";
import { api, type Entry, listAll, settledLog } from "../world.js";
import { checkToolTurn } from "./tool-turns.js";

const text = (e: Entry | undefined) => e?.content?.map((p) => p.text ?? "").join("") ?? "";

/**
 * What is wrong with a finished delegation: the coordinator's log (one delegation tool use, one result carrying the
 * subagent's answer, one final message), exactly one child session for that use, and the child's log (one user message
 * with the task, one reply).
 */
export function checkDelegation(
  sessionId: string,
  log: readonly Entry[],
  children: { id: string; log: readonly Entry[] }[],
): string[] {
  // The coordinator's turn has the shape of a tool turn: the delegation is its one tool use.
  const problems = checkToolTurn(sessionId, log);
  const use = log.find((e) => e.type === "agent.tool_use");
  if (use && use.name !== `delegate_to_${DELEGATE_ROLE}`) problems.push(`${sessionId}: the tool use is ${use.name}`);
  if (children.length !== 1) problems.push(`${sessionId}: ${children.length} child sessions, expected 1`);
  const child = children[0];
  if (!child) return problems;
  const childLabel = `${sessionId} → child ${child.id}`;
  problems.push(...checkReplyTurn(childLabel, child.log));
  const result = log.find((e) => e.type === "agent.tool_result");
  const task = text(child.log.find((e) => e.type === "user.message"));
  const answer = text(child.log.find((e) => e.type === "agent.message"));
  if (answer !== echoAnswer(task)) problems.push(`${childLabel}: answered "${answer}" to "${task}"`);
  if (result && (result.isError || text(result) !== answer)) {
    problems.push(`${sessionId}: the delegation result is not the child's answer`);
  }
  return problems;
}

type Handles = { sessions: string[]; subagentId: string };

export function delegations(sessions: number): Scenario<Handles> {
  return {
    name: "delegate",
    unit: "delegations",
    async start(world) {
      const sub = await api<{ id: string }>(world, "POST", "/agents", {
        name: "Chaos subagent",
        model: "openai-compatible/fake-model",
        system: `You answer subtasks. ${marker("sub")}`,
      });
      const coordinator = await api<{ id: string }>(world, "POST", "/agents", {
        name: "Chaos coordinator",
        model: "openai-compatible/fake-model",
        system: `You delegate. ${marker("coordinator")}`,
        multiagent: { type: "coordinator", roster: [{ agentId: sub.id, role: DELEGATE_ROLE, mode: "foreground" }] },
      });
      const created = await Promise.all(
        Array.from({ length: sessions }, (_, i) =>
          api<{ id: string }>(world, "POST", "/sessions", {
            agent: coordinator.id,
            events: [{ type: "user.message", content: [{ type: "text", text: `Delegated task ${i}` }] }],
          }),
        ),
      );
      return { sessions: created.map((s) => s.id), subagentId: sub.id };
    },
    async check(world, handles, plan) {
      const failures: string[] = [];
      const logs = new Map<string, Entry[]>();
      for (const id of handles.sessions) {
        const log = await settledLog(world, id, plan.deadline);
        if (typeof log === "string") failures.push(log);
        else logs.set(id, log);
      }
      const all = await listAll<{ id: string; parentSessionId: string | null }>(
        world,
        `/sessions?agent=${handles.subagentId}`,
      );
      for (const [id, log] of logs) {
        const children: { id: string; log: Entry[] }[] = [];
        for (const child of all.filter((s) => s.parentSessionId === id)) {
          const childLog = await settledLog(world, child.id, plan.deadline);
          if (typeof childLog === "string") failures.push(childLog);
          else children.push({ id: child.id, log: childLog });
        }
        failures.push(...checkDelegation(id, log, children));
      }
      const strays = all.filter((s) => !s.parentSessionId || !handles.sessions.includes(s.parentSessionId));
      if (strays.length > 0) failures.push(`${strays.length} subagent session(s) of no coordinator session`);
      return { units: handles.sessions.length, failures };
    },
  };
}
