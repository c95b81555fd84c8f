import type { ServerResponse } from "node:http";

/**
 * A Responses API response sent as the API streams it (`stream: true`): `response.created` and
 * `response.in_progress`, then per output item `response.output_item.added`, its deltas (a reasoning item's
 * `response.reasoning_summary_part.added` / `…summary_text.delta` / `…summary_part.done`; a function call's
 * `response.function_call_arguments.delta` in two fragments and `….done`; a message's `response.content_part.added`,
 * `response.output_text.delta` word by word, `response.output_text.done` and `response.content_part.done`) and
 * `response.output_item.done` with the whole item (a reasoning item's `encrypted_content` only there), then
 * `response.completed` with the usage. Each is `event: <type>` with its JSON `data` and a `sequence_number`.
 */
// biome-ignore lint/suspicious/noExplicitAny: a Responses API body, as built by the fake
export async function streamResponse(response: ServerResponse, body: any, chunkDelayMs: number): Promise<void> {
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  let open = true;
  response.on("close", () => {
    open = false;
  });
  let sequence = 0;
  const send = async (type: string, data: Record<string, unknown>, pause = false) => {
    if (!open) return;
    if (pause && chunkDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, chunkDelayMs));
    if (open)
      response.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`);
  };
  const { output, usage, ...head } = body;
  await send("response.created", { response: { ...head, status: "in_progress", output: [], usage: null } });
  await send("response.in_progress", { response: { ...head, status: "in_progress", output: [], usage: null } });
  for (const [output_index, item] of (output as Record<string, unknown>[]).entries()) {
    const item_id = item.id;
    if (item.type === "reasoning") {
      await send("response.output_item.added", { output_index, item: { type: "reasoning", id: item_id, summary: [] } });
      for (const [summary_index, part] of (item.summary as { text: string }[]).entries()) {
        await send("response.reasoning_summary_part.added", {
          item_id,
          output_index,
          summary_index,
          part: { type: "summary_text", text: "" },
        });
        await send(
          "response.reasoning_summary_text.delta",
          { item_id, output_index, summary_index, delta: part.text },
          true,
        );
        await send("response.reasoning_summary_part.done", {
          item_id,
          output_index,
          summary_index,
          part: { type: "summary_text", text: part.text },
        });
      }
    } else if (item.type === "function_call") {
      await send("response.output_item.added", {
        output_index,
        item: { ...item, arguments: "", status: "in_progress" },
      });
      const json = String(item.arguments);
      const half = Math.ceil(json.length / 2);
      for (const delta of [json.slice(0, half), json.slice(half)]) {
        await send("response.function_call_arguments.delta", { item_id, output_index, delta }, true);
      }
      await send("response.function_call_arguments.done", { item_id, output_index, arguments: json });
    } else if (item.type === "message") {
      await send("response.output_item.added", { output_index, item: { ...item, status: "in_progress", content: [] } });
      const text = String((item.content as { text: string }[])[0]?.text ?? "");
      const part = { type: "output_text", text: "", annotations: [] };
      await send("response.content_part.added", { item_id, output_index, content_index: 0, part });
      for (const delta of text.match(/\S+\s*/g) ?? []) {
        await send(
          "response.output_text.delta",
          { item_id, output_index, content_index: 0, delta, logprobs: [] },
          true,
        );
      }
      await send("response.output_text.done", { item_id, output_index, content_index: 0, text, logprobs: [] });
      await send("response.content_part.done", { item_id, output_index, content_index: 0, part: { ...part, text } });
    }
    await send("response.output_item.done", { output_index, item });
  }
  await send("response.completed", { response: body });
  if (open) response.end();
}
