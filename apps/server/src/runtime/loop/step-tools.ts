import { idleEvent, toolResultEvent } from "./events.js";
import { commitScreenedResult, screenToolResult, toolResultGuardrails } from "./guard-tool-result.js";
import type { LogState, NextAction } from "./log-state.js";
import { idleStatus, type SessionPass } from "./pass.js";
import type { StepOutcome } from "./step-call-model.js";

const DEFAULT_DENY_MESSAGE = "The user denied this tool call.";

type Next<K extends NextAction["kind"]> = Extract<NextAction, { kind: K }>;

/** `run_tools`: runs the tool uses in order (a denied confirmation answers with the deny message), one result each. */
export async function runToolsStep(
  pass: SessionPass,
  state: LogState,
  next: Next<"run_tools">,
  stepSignal: AbortSignal,
): Promise<StepOutcome> {
  await pass.openTurn(state);
  const guardrails = await toolResultGuardrails(pass, await pass.loadAgent());
  for (const [index, use] of next.toolUses.entries()) {
    if (stepSignal.aborted) break;
    const denied = use.requiresConfirmation && use.confirmation && !use.confirmation.allow;
    const result = denied
      ? { content: use.confirmation?.denyMessage ?? DEFAULT_DENY_MESSAGE, isError: true }
      : await pass.executeToolUse(use, stepSignal);
    if (stepSignal.aborted) break;
    if (denied || guardrails.length === 0) {
      await pass.append([
        toolResultEvent(use, result.content, result.isError, "parts" in result ? result.parts : undefined),
      ]);
      continue;
    }
    // Tool-result guardrails: what the tool brought back is checked before it is written (and so before it is sent).
    const screen = await screenToolResult(pass, await pass.loadAgent(), guardrails, use, result, stepSignal);
    if (stepSignal.aborted) break;
    if (await commitScreenedResult(pass, use, screen, next.toolUses.slice(index + 1))) return "settled";
  }
  return "again";
}

/**
 * `await_actions`: the turn waits for confirmations or custom tool results (`requires_action`). Without an operator
 * (experiment cases, foreground subagents) nobody will answer: the turn ends at once with an explicit error.
 */
export async function awaitActionsStep(
  pass: SessionPass,
  state: LogState,
  next: Next<"await_actions">,
): Promise<StepOutcome> {
  if (!pass.settings.operator) {
    const missing = next.toolUses.map((u) =>
      u.kind === "custom"
        ? `custom tool "${u.name}" needs a client to run it (user.custom_tool_result)`
        : `tool "${u.name}" requires confirmation (always_ask) and nobody can confirm it`,
    );
    const message = `This session has no operator: ${missing.join("; ")}`;
    await pass.openTurn(state);
    const unanswered = next.toolUses.map((u) => toolResultEvent(u, `Not run: ${message}`, true));
    await pass.failTurn("session.operator_required", message, unanswered);
    return "settled";
  }
  if (state.turnOpen) {
    await pass.append([idleEvent("requires_action", next.pending)], idleStatus("requires_action", next.pending));
  } else if (!samePending(pass.headPending, next.pending)) {
    await pass.commit(() => ({ events: [], pendingActionsOnly: next.pending }));
  }
  return "settled";
}

function samePending(a: Next<"await_actions">["pending"], b: Next<"await_actions">["pending"]): boolean {
  return a.length === b.length && a.every((x, i) => x.toolUseId === b[i]?.toolUseId && x.kind === b[i]?.kind);
}
