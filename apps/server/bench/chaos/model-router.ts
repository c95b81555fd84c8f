// The chaos model: one OpenAI-compatible fake answers every scenario. A request is routed by the marker in its system
// prompt (each scenario's agent, or experiment task, carries `[chaos:<role>]`), and the reply depends only on the
// request's content (last message role and last user text), so a step re-run after a crash gets the same answer.
// Delays are derived from a hash of the content too: slow enough for kills to land in model calls.
import { createHash } from "node:crypto";
import type { FakeReply, FakeRequest } from "../../test/support/fake-openai.js";
import { lastUserText } from "../../test/support/fake-openai.js";

export type ModelRole = "tool" | "confirm" | "coordinator" | "sub" | "automation" | "experiment";

export const marker = (role: ModelRole) => `[chaos:${role}]`;

/** The expected answer of the `experiment` and `sub` roles to an input. */
export const echoAnswer = (input: string) => `echo: ${input}`;

export const DELEGATE_ROLE = "helper";
export const delegatedTask = (userText: string) => `Subtask of ${userText}`;

type Message = { role?: string; content?: unknown };

function systemText(messages: Message[]): string {
  return messages
    .filter((m) => m.role === "system")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))
    .join("\n");
}

function roleOf(messages: Message[]): ModelRole | undefined {
  const system = systemText(messages);
  const match = /\[chaos:([a-z]+)\]/.exec(system);
  return match?.[1] as ModelRole | undefined;
}

/** A stable number in [0, 1) from a string. */
function unit(text: string): number {
  return createHash("sha256").update(text).digest().readUInt32BE(0) / 2 ** 32;
}

/** The reply to one chat completion request. */
export function chaosModel(request: Pick<FakeRequest, "body">): FakeReply {
  const messages: Message[] = Array.isArray(request.body?.messages) ? request.body.messages : [];
  const lastRole = messages.at(-1)?.role;
  const user = lastUserText(request.body);
  const key = JSON.stringify(messages);
  const delayMs = Math.floor(unit(key) * 300);
  const chunkDelayMs = Math.floor(unit(`${key}#chunks`) * 40);
  switch (roleOf(messages)) {
    case "tool":
    case "confirm":
      if (lastRole === "tool") return { text: "Noted and done.", delayMs, chunkDelayMs };
      return { delayMs, toolCalls: [{ name: "artifact_write", arguments: { name: "notes.md", content: user } }] };
    case "coordinator":
      if (lastRole === "tool") return { text: "Coordinated.", delayMs, chunkDelayMs };
      return {
        delayMs,
        toolCalls: [{ name: `delegate_to_${DELEGATE_ROLE}`, arguments: { task: delegatedTask(user) } }],
      };
    case "sub":
    case "experiment":
      return { text: echoAnswer(user), delayMs, chunkDelayMs };
    case "automation":
      return { text: "Automation done.", delayMs, chunkDelayMs };
    default:
      return { text: "ok" };
  }
}
