import type { ConversationMessage } from "./messages.js";
import { ModelCallError, throwIfAborted } from "./model-errors.js";
import type { ModelCallResult, ModelToolCall } from "./model-result.js";

/**
 * `builtin/script`: a deterministic offline model that follows directives written in the last user message, one per
 * line, so that tool calls, confirmations (`requires_action`), custom tools and failures can be shown without a
 * provider:
 *
 *   /call <tool> <JSON input>   call a tool (consecutive `/call` lines are one step with parallel calls)
 *   /say <text>                 reply with this text
 *   /wait <milliseconds>        pause before going on (at most 60000; an interrupt stops it)
 *   /fail <message>             fail the model call (the turn ends with `session.error`)
 *
 * Other lines are ignored when the message has directives; without any, the model answers like `builtin/echo`. A step
 * runs the directives up to and including the next group of `/call`s; the next step, once the tool results are in,
 * goes on after them. A later step without `/say` or `/call` (the script is done) replies with the last tool result's
 * output. A tool the agent does not have is answered by the loop as for any model ("Unknown tool …").
 */
type Directive =
  | { kind: "call"; name: string; input: unknown; inputError?: string }
  | { kind: "say"; text: string }
  | { kind: "wait"; ms: number }
  | { kind: "fail"; message: string };

const MAX_WAIT_MS = 60_000;
const DIRECTIVE = /^\/(call|say|wait|fail)(?:\s+([\s\S]*))?$/;

export function parseDirectives(text: string): Directive[] {
  const out: Directive[] = [];
  for (const line of text.split("\n")) {
    const match = DIRECTIVE.exec(line.trim());
    if (!match) continue;
    const [, kind, rest = ""] = match;
    if (kind === "say") out.push({ kind, text: rest });
    else if (kind === "fail") out.push({ kind, message: rest || "Scripted failure" });
    else if (kind === "wait") out.push({ kind, ms: waitMs(rest) });
    else out.push(callDirective(rest));
  }
  return out;
}

function waitMs(rest: string): number {
  return Math.min(MAX_WAIT_MS, Math.max(0, Number.parseInt(rest, 10) || 0));
}

function callDirective(rest: string): Directive {
  const [name = "", ...inputWords] = rest.split(/\s+/);
  const raw = inputWords.join(" ").trim() || "{}";
  try {
    return { kind: "call", name, input: JSON.parse(raw) };
  } catch {
    return { kind: "call", name, input: raw, inputError: `/call ${name}: the input is not JSON` };
  }
}

/** Directives grouped into steps: each ends after a run of `/call`s, the last one at the end of the script. */
function stepsOf(directives: Directive[]): Directive[][] {
  const steps: Directive[][] = [[]];
  directives.forEach((directive, i) => {
    steps.at(-1)!.push(directive);
    const next = directives[i + 1];
    if (directive.kind === "call" && next !== undefined && next.kind !== "call") steps.push([]);
  });
  return steps;
}

/** The last user message, and how many model steps already answered it (one assistant message each). */
function position(messages: readonly ConversationMessage[]): { text: string; step: number } {
  let step = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === "user") return { text: message.text, step };
    if (message.role === "assistant") step++;
  }
  return { text: "", step };
}

function lastToolOutput(messages: readonly ConversationMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === "user") return "";
    if (message.role === "tool" && message.results.length > 0) return message.results.at(-1)!.output;
  }
  return "";
}

function countWords(text: string): number {
  return text.split(/\s+/).filter((word) => word.length > 0).length;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

export async function callScriptModel(options: {
  messages: readonly ConversationMessage[];
  signal?: AbortSignal;
  onTextDelta?: (delta: string) => void;
}): Promise<ModelCallResult> {
  const started = performance.now();
  throwIfAborted(options.signal);
  const { text: userText, step } = position(options.messages);
  const directives = parseDirectives(userText);
  const steps = directives.length > 0 ? stepsOf(directives) : [[{ kind: "say", text: userText } as Directive]];
  const current = steps[step] ?? [];
  // Yield once so that an abort raised by the caller right after starting the call is observed.
  await new Promise<void>((resolve) => setImmediate(resolve));
  const said: string[] = [];
  const toolCalls: ModelToolCall[] = [];
  for (const directive of current) {
    throwIfAborted(options.signal);
    if (directive.kind === "wait") await sleep(directive.ms, options.signal);
    else if (directive.kind === "fail") throw new ModelCallError("model.provider_error", directive.message);
    else if (directive.kind === "say") said.push(directive.text);
    else {
      const call: ModelToolCall = {
        id: `toolu_script_${options.messages.length}_${toolCalls.length}`,
        name: directive.name,
        input: directive.input,
      };
      if (directive.inputError) call.inputError = directive.inputError;
      toolCalls.push(call);
    }
  }
  throwIfAborted(options.signal);
  // A later step with nothing to say or call is the script's end: it reports the last tool result.
  const done = said.length === 0 && toolCalls.length === 0 && step > 0;
  const text = done ? lastToolOutput(options.messages) : said.join("\n");
  if (text.length > 0) options.onTextDelta?.(text);
  return {
    text,
    toolCalls,
    usage: { inputTokens: countWords(userText), outputTokens: countWords(text) },
    finishReason: toolCalls.length > 0 ? "tool-calls" : "stop",
    providerLatencyMs: performance.now() - started,
  };
}
