import { randomUUID } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A real HTTP server on 127.0.0.1 speaking Anthropic's Messages API (`POST /v1/messages`, not streamed), answering
 * from a function. Like the real API it refuses a prompt over the model's window (prompt tokens counted as words, plus
 * `max_tokens`) with 400 `invalid_request_error` "prompt is too long: N tokens > W maximum".
 */

export interface FakeAnthropicReply {
  text?: string;
  toolUses?: { name: string; input: Record<string, unknown> }[];
}

// biome-ignore lint/suspicious/noExplicitAny: request bodies are inspected freely by tests
export type FakeAnthropicRequest = { body: any; refused: boolean };

export interface FakeAnthropic {
  /** Base URL including `/v1`. */
  url: string;
  requests: FakeAnthropicRequest[];
  close(): Promise<void>;
}

const countWords = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** Words of every text in the request (system, text blocks, tool results), as this fake counts tokens. */
function promptWords(value: unknown): number {
  if (typeof value === "string") return countWords(value);
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + promptWords(item), 0);
  if (typeof value !== "object" || value === null) return 0;
  const record = value as Record<string, unknown>;
  return promptWords(record.text) + promptWords(record.content) + promptWords(record.system);
}

function send(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

export async function startFakeAnthropic(options: {
  contextWindow: number;
  reply: (request: FakeAnthropicRequest) => FakeAnthropicReply;
}): Promise<FakeAnthropic> {
  const requests: FakeAnthropicRequest[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
    if (request.method !== "POST" || !request.url?.startsWith("/v1/messages")) {
      return send(response, 404, { type: "error", error: { type: "not_found_error", message: "Not found" } });
    }
    const prompt = promptWords({ system: body.system, content: body.messages });
    const refused = prompt + Number(body.max_tokens ?? 0) > options.contextWindow;
    const recorded = { body, refused };
    requests.push(recorded);
    if (refused) {
      return send(response, 400, {
        type: "error",
        error: {
          type: "invalid_request_error",
          message: `prompt is too long: ${prompt + Number(body.max_tokens ?? 0)} tokens > ${options.contextWindow} maximum`,
        },
      });
    }
    const reply = options.reply(recorded);
    const content = [
      ...(reply.text ? [{ type: "text", text: reply.text }] : []),
      ...(reply.toolUses ?? []).map((use) => ({
        type: "tool_use",
        id: `toolu_${randomUUID().replace(/-/g, "")}`,
        name: use.name,
        input: use.input,
      })),
    ];
    send(response, 200, {
      id: `msg_${randomUUID().replace(/-/g, "")}`,
      type: "message",
      role: "assistant",
      model: body.model,
      content,
      stop_reason: reply.toolUses?.length ? "tool_use" : "end_turn",
      stop_sequence: null,
      usage: { input_tokens: prompt, output_tokens: countWords(reply.text ?? "") + 1 },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
