import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { FakePromptCache } from "./fake-anthropic-cache.js";
import { streamMessage } from "./fake-anthropic-stream.js";
import { signThinking, thinkingRefusal } from "./fake-anthropic-thinking.js";
import { countFakeTokens, IMAGE_TOKENS } from "./fake-tokenizer.js";

/**
 * A real HTTP server on 127.0.0.1 speaking Anthropic's Messages API (`POST /v1/messages`, streamed as the API streams
 * with `stream: true`: `fake-anthropic-stream.ts`), answering
 * from `options.reply` or else a queue of scripted replies (`enqueue`). It refuses what the real API refuses:
 * - a `tool_result` whose content is not a string or blocks of type `text`, `image` (base64 of a JPEG, PNG, GIF or
 *   WebP, or a URL), `document` or `search_result` (400 `invalid_request_error`);
 * - with `options.contextWindow`, a prompt over the model's window (prompt tokens counted at least as a real tokenizer
 *   counts them, `fake-tokenizer.ts`, plus `max_tokens`):
 *   400 `invalid_request_error` "prompt is too long: N tokens > W maximum";
 * - thinking as `fake-anthropic-thinking.ts` says (bad budgets, altered or dropped signed thinking blocks);
 * - more than 4 `cache_control` markers. Prompt caching follows the API (`fake-anthropic-cache.ts`): usage reports
 *   `cache_read_input_tokens` and `cache_creation_input_tokens`, and `input_tokens` only for the rest.
 */

export interface FakeAnthropicReply {
  /** Never answer (the request stays open until the client goes away or the fake closes). */
  hang?: boolean;
  /** With thinking enabled, the thinking block the response starts with (signed by the fake). */
  thinking?: string;
  text?: string;
  toolCalls?: { name: string; input: Record<string, unknown> }[];
  /** When the request asks for a stream: wait between deltas. */
  chunkDelayMs?: number;
}

export interface FakeAnthropicRequest {
  path: string;
  headers: Record<string, string>;
  // biome-ignore lint/suspicious/noExplicitAny: recorded JSON bodies are inspected freely by tests
  body: any;
  status: number;
  /** Refused as longer than the model's window. */
  refused: boolean;
  /** The usage the response reported (in `message_start` when streamed, output tokens at its end). */
  // biome-ignore lint/suspicious/noExplicitAny: a Messages API usage object
  usage?: any;
}

export interface FakeAnthropicOptions {
  contextWindow?: number;
  /** Shortest prefix the prompt cache keeps (1024 tokens for Claude Sonnet and Opus, the default). */
  minCacheableTokens?: number;
  /** Models that refuse `thinking` (as models without extended thinking do). */
  noThinking?: string[];
  reply?: (request: FakeAnthropicRequest) => FakeAnthropicReply;
}

export interface FakeAnthropic {
  /** Base URL including `/v1` (`ANTHROPIC_BASE_URL`). */
  url: string;
  requests: FakeAnthropicRequest[];
  enqueue(...replies: FakeAnthropicReply[]): void;
  close(): Promise<void>;
}

const IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);
const RESULT_BLOCKS = new Set(["text", "image", "document", "search_result"]);

function invalidImage(block: { source?: { type?: string; media_type?: string; data?: string } }): string | null {
  const source = block.source;
  if (source?.type === "url") return null;
  if (source?.type !== "base64") return "image.source.type: expected 'base64' or 'url'";
  if (!IMAGE_TYPES.has(source.media_type ?? "")) return `image.source.media_type: '${source.media_type}' not supported`;
  if (!source.data || Buffer.from(source.data, "base64").toString("base64") !== source.data) {
    return "image.source.data: not valid base64";
  }
  return null;
}

function invalidRequest(body: { messages?: { content?: unknown }[] }): string | null {
  for (const [m, message] of (body?.messages ?? []).entries()) {
    if (!Array.isArray(message?.content)) continue;
    for (const [b, block] of (message.content as { type?: string; content?: unknown }[]).entries()) {
      if (block?.type !== "tool_result" || !Array.isArray(block.content)) continue;
      for (const [c, part] of (block.content as { type?: string }[]).entries()) {
        const at = `messages.${m}.content.${b}.content.${c}`;
        if (!RESULT_BLOCKS.has(part?.type ?? "")) return `${at}: Input tag '${part?.type}' is not a valid block type`;
        const image = part.type === "image" ? invalidImage(part as Parameters<typeof invalidImage>[0]) : null;
        if (image) return `${at}.${image}`;
      }
    }
  }
  return null;
}

/**
 * Tokens of a part of the request as the API counts them (`fake-tokenizer.ts`): texts, thinking, tool inputs (as JSON),
 * tool results and the system prompt; an image costs a fixed amount.
 */
function promptTokens(value: unknown): number {
  if (typeof value === "string") return countFakeTokens(value);
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + promptTokens(item), 0);
  if (typeof value !== "object" || value === null) return 0;
  const record = value as Record<string, unknown>;
  if (record.type === "image") return IMAGE_TOKENS;
  return (
    promptTokens(record.text) +
    promptTokens(record.thinking) +
    promptTokens(record.content) +
    promptTokens(record.system) +
    (record.type === "tool_use" ? countFakeTokens(record.name) + countFakeTokens(record.input) : 0)
  );
}

function sendJson(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { "content-type": "application/json", "request-id": `req_${randomUUID()}` });
  response.end(JSON.stringify(body));
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString("utf8");
  return raw ? JSON.parse(raw) : undefined;
}

export async function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const requests: FakeAnthropicRequest[] = [];
  const queue: FakeAnthropicReply[] = [];
  const cache = new FakePromptCache(options.minCacheableTokens ?? 1024);
  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    // biome-ignore lint/suspicious/noExplicitAny: a request body as sent
    const body = (await readJson(request)) as any;
    const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
    const recorded: FakeAnthropicRequest = { path, headers, body, status: 200, refused: false };
    requests.push(recorded);
    const fail = (status: number, type: string, message: string) => {
      recorded.status = status;
      sendJson(response, status, { type: "error", error: { type, message } });
    };
    if (request.method !== "POST" || path !== "/v1/messages") return fail(404, "not_found_error", "Not found");
    const invalid = invalidRequest(body);
    if (invalid) return fail(400, "invalid_request_error", invalid);
    const prompt =
      promptTokens({ system: body.system, content: body.messages }) +
      (Array.isArray(body.tools) && body.tools.length > 0 ? countFakeTokens(body.tools) : 0);
    const needed = prompt + Number(body.max_tokens ?? 0);
    if (options.contextWindow !== undefined && needed > options.contextWindow) {
      recorded.refused = true;
      return fail(
        400,
        "invalid_request_error",
        `prompt is too long: ${needed} tokens > ${options.contextWindow} maximum`,
      );
    }
    const refusal = thinkingRefusal(body, options.noThinking ?? []);
    if (refusal) return fail(400, "invalid_request_error", refusal);
    const cached = cache.account(body, promptTokens);
    if ("error" in cached) return fail(400, "invalid_request_error", cached.error);
    const reply = options.reply?.(recorded) ?? queue.shift() ?? { text: "ok" };
    if (reply.hang) return;
    const toolUses = (reply.toolCalls ?? []).map((call) => ({
      type: "tool_use",
      id: `toolu_${randomUUID().replace(/-/g, "").slice(0, 24)}`,
      name: call.name,
      input: call.input,
    }));
    const thought = body.thinking?.type === "enabled" ? (reply.thinking ?? "Let me think this through.") : undefined;
    const thinkingBlocks =
      thought === undefined ? [] : [{ type: "thinking", thinking: thought, signature: signThinking(thought) }];
    const message = {
      id: `msg_${randomUUID().replace(/-/g, "").slice(0, 24)}`,
      type: "message",
      role: "assistant",
      model: body.model,
      content: [...thinkingBlocks, ...(reply.text ? [{ type: "text", text: reply.text }] : []), ...toolUses],
      stop_reason: toolUses.length > 0 ? "tool_use" : "end_turn",
      stop_sequence: null,
      // As the API reports them: `input_tokens` are the tokens after the last cache breakpoint (neither read nor written).
      usage: {
        input_tokens: prompt - cached.read - cached.written,
        cache_creation_input_tokens: cached.written,
        cache_read_input_tokens: cached.read,
        output_tokens:
          countFakeTokens(reply.text ?? "") +
          countFakeTokens(thought ?? "") +
          (reply.toolCalls ?? []).reduce((sum, c) => sum + countFakeTokens(c.name) + countFakeTokens(c.input), 0) +
          1,
      },
    };
    recorded.usage = message.usage;
    if (body.stream === true) return streamMessage(response, message, reply.chunkDelayMs ?? 0);
    sendJson(response, 200, message);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
