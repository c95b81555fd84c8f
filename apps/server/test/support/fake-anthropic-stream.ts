import type { ServerResponse } from "node:http";

/**
 * A Messages API response sent as the API streams it (`stream: true`): `message_start` (with the input usage),
 * then per content block `content_block_start`, its deltas (`thinking_delta` then `signature_delta`, `text_delta` word
 * by word, `input_json_delta` in two fragments) and `content_block_stop`, then `message_delta` (stop reason and output
 * tokens) and `message_stop`, each as `event: <type>` with its JSON `data`. `chunkDelayMs` is waited between deltas.
 */
// biome-ignore lint/suspicious/noExplicitAny: a Messages API response body, as built by the fake
export async function streamMessage(response: ServerResponse, message: any, chunkDelayMs: number): Promise<void> {
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  let open = true;
  response.on("close", () => {
    open = false;
  });
  const send = async (type: string, data: Record<string, unknown>, pause = false) => {
    if (!open) return;
    if (pause && chunkDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, chunkDelayMs));
    if (open) response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  };
  const { content, usage, stop_reason, ...head } = message;
  await send("message_start", {
    message: { ...head, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
  });
  for (const [index, block] of (content as Record<string, unknown>[]).entries()) {
    if (block.type === "thinking") {
      await send("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } });
      await send("content_block_delta", { index, delta: { type: "thinking_delta", thinking: block.thinking } }, true);
      await send("content_block_delta", { index, delta: { type: "signature_delta", signature: block.signature } });
    } else if (block.type === "text") {
      await send("content_block_start", { index, content_block: { type: "text", text: "" } });
      for (const piece of String(block.text).match(/\S+\s*/g) ?? []) {
        await send("content_block_delta", { index, delta: { type: "text_delta", text: piece } }, true);
      }
    } else if (block.type === "tool_use") {
      await send("content_block_start", {
        index,
        content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
      });
      const json = JSON.stringify(block.input);
      const half = Math.ceil(json.length / 2);
      for (const part of [json.slice(0, half), json.slice(half)]) {
        await send("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: part } }, true);
      }
    }
    await send("content_block_stop", { index });
  }
  await send("message_delta", {
    delta: { stop_reason, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  await send("message_stop", {});
  if (open) response.end();
}
