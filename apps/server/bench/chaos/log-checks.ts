// Pure checks shared by the scenarios: what must hold of any session log after a crash trial.
import type { Entry } from "./world.js";

/**
 * `seq` contiguous from 1, event ids unique, each turn opened once (no `session.status_running` while one is open), no
 * `session.error`, the last entry an idle `end_turn`.
 */
export function checkLogShape(label: string, log: readonly Entry[]): string[] {
  const problems: string[] = [];
  if (log.some((e, i) => e.seq !== i + 1)) problems.push(`${label}: seq not contiguous`);
  if (new Set(log.map((e) => e.id)).size !== log.length) problems.push(`${label}: a repeated event id`);
  const statuses = log.filter((e) => e.type === "session.status_running" || e.type === "session.status_idle");
  if (statuses.some((e, i) => e.type === "session.status_running" && statuses[i - 1]?.type === e.type)) {
    problems.push(`${label}: a turn opened twice`);
  }
  const errors = log.filter((e) => e.type === "session.error").length;
  if (errors > 0) problems.push(`${label}: ${errors} × session.error`);
  const last = log.at(-1);
  if (last?.type !== "session.status_idle" || last.stopReason !== "end_turn") {
    problems.push(`${label}: ends with ${last?.type} ${last?.stopReason ?? ""}`);
  }
  return problems;
}

/** Each event type occurs exactly the expected number of times. */
export function checkCounts(label: string, log: readonly Entry[], expected: Record<string, number>): string[] {
  const problems: string[] = [];
  for (const [type, n] of Object.entries(expected)) {
    const count = log.filter((e) => e.type === type).length;
    if (count !== n) problems.push(`${label}: ${count} × ${type}, expected ${n}`);
  }
  return problems;
}

/** Every tool result answers a tool use of the log, and no use is answered twice. */
export function checkToolPairs(label: string, log: readonly Entry[]): string[] {
  const uses = new Set(log.filter((e) => e.type === "agent.tool_use").map((e) => e.id));
  const answered = new Set<string>();
  const problems: string[] = [];
  for (const result of log.filter((e) => e.type === "agent.tool_result")) {
    if (!result.toolUseId || !uses.has(result.toolUseId)) problems.push(`${label}: a tool result answers another use`);
    else if (answered.has(result.toolUseId)) problems.push(`${label}: a tool use answered twice`);
    else answered.add(result.toolUseId);
  }
  return problems;
}

/** A turn that answered a user message directly: one user message, one reply, nothing else. */
export function checkReplyTurn(label: string, log: readonly Entry[]): string[] {
  return [
    ...checkLogShape(label, log),
    ...checkCounts(label, log, { "user.message": 1, "agent.message": 1, "agent.tool_use": 0 }),
  ];
}
