import { createHmac } from "node:crypto";

/**
 * Extended thinking as the Messages API does it: with `thinking: { type: "enabled", budget_tokens }` (at least 1024 and
 * below `max_tokens`, else 400) a response starts with a `thinking` block whose `signature` the API checks when the
 * block comes back; thinking blocks sent back altered are refused (400), and so is a conversation whose final
 * assistant message (the one before the last tool results) does not start with its thinking block. Models listed in
 * `noThinking` refuse the parameter as the API does for models without extended thinking.
 */
const KEY = "fake-anthropic-thinking";

export const signThinking = (thinking: string) => createHmac("sha256", KEY).update(thinking).digest("base64");

// biome-ignore lint/suspicious/noExplicitAny: a Messages API body as sent
export function thinkingRefusal(body: any, noThinking: readonly string[]): string | null {
  const thinking = body?.thinking;
  if (thinking?.type === "enabled") {
    if (noThinking.includes(body.model)) return `'${body.model}' does not support thinking.`;
    const budget = Number(thinking.budget_tokens);
    if (!(budget >= 1024)) return "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024";
    if (!(budget < Number(body.max_tokens))) {
      return "`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size";
    }
  }
  const messages: { role: string; content: unknown }[] = body?.messages ?? [];
  for (const [m, message] of messages.entries()) {
    if (message.role !== "assistant" || !Array.isArray(message.content)) continue;
    for (const [b, block] of (
      message.content as { type?: string; thinking?: string; signature?: string }[]
    ).entries()) {
      if (block.type === "thinking" && block.signature !== signThinking(String(block.thinking))) {
        return `messages.${m}.content.${b}: Invalid \`signature\` in \`thinking\` block`;
      }
    }
  }
  if (thinking?.type !== "enabled") return null;
  // The last assistant message, when tool results follow it, must start with its thinking.
  const last = messages.findLastIndex((message) => message.role === "assistant");
  const after = messages[last + 1];
  const toolResultsFollow =
    Array.isArray(after?.content) && (after.content as { type?: string }[]).some((b) => b.type === "tool_result");
  if (last >= 0 && toolResultsFollow) {
    const first = (messages[last]!.content as { type?: string }[])[0];
    if (first?.type !== "thinking" && first?.type !== "redacted_thinking") {
      return `messages.${last}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first?.type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking`;
    }
  }
  return null;
}
