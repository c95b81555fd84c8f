import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { countFakeTokens, IMAGE_TOKENS, MESSAGE_OVERHEAD_TOKENS } from "./fake-tokenizer.js";

/**
 * A real HTTP server on 127.0.0.1 speaking the OpenAI Chat Completions protocol (streaming and not),
 * answering from a queue of scripted replies, or echoing the last user message when the queue is empty. Strict as the
 * real servers: images only in `user` messages and only to `visionModels`, a prompt over the window refused with each
 * server's own body, tokens counted at least as a real tokenizer counts them (`fake-tokenizer.ts`).
 */

export interface FakeToolCall {
  id?: string;
  name: string;
  /** A JSON string as the model would send it, or an object to serialise. */
  arguments: string | Record<string, unknown>;
}

export interface FakeCompletionReply {
  text?: string;
  toolCalls?: FakeToolCall[];
  /** Wait before the first token (streaming: headers are sent first) or before the response. */
  delayMs?: number;
  /** Answer only once this settles (then `delayMs`): lets a test hold replies until something it observes happened. */
  after?: Promise<unknown>;
  /** Wait between streamed chunks (a reply not streamed waits as long in all before it is sent). */
  chunkDelayMs?: number;
  /**
   * Break the stream after this many content chunks, with an error event or by dropping the socket (a reply not
   * streamed fails after the same time: a 503, or the socket dropped).
   */
  failMidStream?: { afterChunks: number; kind: "error-event" | "disconnect"; message?: string };
  /** `cachedTokens` (of the prompt) and `reasoningTokens` (of the completion) are reported in their details fields. */
  usage?: { promptTokens: number; completionTokens: number; cachedTokens?: number; reasoningTokens?: number };
}

export interface FakeFailureReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
}

/** Never answers; the request stays open until the client goes away or the server closes. */
export interface FakeHangReply {
  hang: true;
}

export type FakeReply = FakeCompletionReply | FakeFailureReply | FakeHangReply;

export interface FakeRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** `client-closed` when the client went away before the response was complete (e.g. an abort). */
  outcome: "pending" | "completed" | "client-closed";
  /** The HTTP status answered (once headers are sent). */
  status?: number;
  // biome-ignore lint/suspicious/noExplicitAny: recorded JSON bodies are inspected freely by tests
  body: any;
}

export type FakeReplyScript = FakeReply | ((request: FakeRequest) => FakeReply);

export interface FakeOpenAI {
  /** Base URL including `/v1`. */
  url: string;
  /** Every request received, in order (chat completions and model listings). */
  requests: FakeRequest[];
  enqueue(...replies: FakeReplyScript[]): void;
  /** How to answer when the queue is empty (default, and `undefined`: echo the last user message). */
  respondWith(script: FakeReplyScript | undefined): void;
  /** Scripted replies not consumed yet. */
  pendingReplies(): number;
  /** Forgets recorded requests and unconsumed replies. */
  reset(): void;
  close(): Promise<void>;
}

const FAKE_MODEL = "fake-model";

interface ChatMessage {
  role?: string;
  content?: string | { type?: string; text?: string }[] | null;
}

function contentText(content: ChatMessage["content"]): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((part) => part?.type === "text")
    .map((part) => part.text ?? "")
    .join("");
}

export function lastUserText(body: { messages?: ChatMessage[] }): string {
  const messages = Array.isArray(body?.messages) ? body.messages : [];
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === "user") return contentText(messages[i].content);
  }
  return "";
}

/**
 * Prompt tokens of a request as a real tokenizer counts them (`fake-tokenizer.ts`): every message's frame, its text
 * parts, its images, the tool calls it carries (name and arguments), and the tool definitions.
 */
export function promptTokens(body: { messages?: unknown[]; tools?: unknown[] }): number {
  const messages = (Array.isArray(body?.messages) ? body.messages : []) as {
    content?: unknown;
    tool_calls?: { function?: { name?: string; arguments?: string } }[];
  }[];
  let tokens = 3 + (Array.isArray(body?.tools) && body.tools.length > 0 ? countFakeTokens(body.tools) : 0);
  for (const message of messages) {
    tokens += MESSAGE_OVERHEAD_TOKENS;
    const content = message?.content;
    if (typeof content === "string") tokens += countFakeTokens(content);
    else if (Array.isArray(content)) {
      for (const part of content as { type?: string; text?: string }[]) {
        tokens += part?.type === "image_url" ? IMAGE_TOKENS : countFakeTokens(part?.text ?? "");
      }
    }
    for (const call of message?.tool_calls ?? []) {
      tokens += countFakeTokens(call.function?.name ?? "") + countFakeTokens(call.function?.arguments ?? "");
    }
  }
  return tokens;
}

function flattenHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString("utf8");
  if (!raw) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

const IMAGE_DATA_URL = /^data:image\/(png|jpeg|gif|webp);base64,([A-Za-z0-9+/]+={0,2})$/;

/**
 * What the Chat Completions API refuses with a 400 about where content goes: a `tool` (or `system`, `assistant`)
 * message carrying anything but text parts, an image outside a `user` message ("Image URLs are only allowed for
 * messages with role 'user'"), an image URL that is neither http(s) nor a base64 data URL of PNG, JPEG, GIF or WebP,
 * and any image sent to a model that takes none (`visionModels` lists those that do).
 */
function invalidContent(
  body: { model?: string; messages?: { role?: string; content?: unknown }[] },
  visionModels: readonly string[],
): string | null {
  const messages = Array.isArray(body?.messages) ? body.messages : [];
  for (const [index, message] of messages.entries()) {
    if (!Array.isArray(message?.content)) continue;
    for (const part of message.content as { type?: string; image_url?: { url?: string } }[]) {
      if (part?.type === "text") continue;
      if (part?.type !== "image_url") {
        return `Invalid 'messages[${index}].content': unknown part type '${part?.type}'`;
      }
      if (message.role !== "user") {
        return (
          `Invalid 'messages[${index}]'. Image URLs are only allowed for messages with role 'user', but this message ` +
          `with role '${message.role}' contains an image URL.`
        );
      }
      const url = String(part.image_url?.url ?? "");
      const data = IMAGE_DATA_URL.exec(url);
      const valid = data ? Buffer.from(data[2]!, "base64").toString("base64") === data[2] : /^https?:\/\//.test(url);
      if (!valid) return `Invalid 'messages[${index}].content': image_url.url is not a valid image URL or data URL`;
      if (!visionModels.includes(String(body.model))) {
        return "Invalid content type. image_url is only supported by certain models.";
      }
    }
  }
  return null;
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

/** Resolves after `ms`, or early (false) when the client disconnects. */
function wait(ms: number, closed: AbortSignal): Promise<boolean> {
  if (closed.aborted) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      closed.removeEventListener("abort", onClose);
      resolve(true);
    }, ms);
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    closed.addEventListener("abort", onClose, { once: true });
  });
}

function toolCallsOf(reply: FakeCompletionReply) {
  return (reply.toolCalls ?? []).map((call) => ({
    id: call.id ?? `call_${randomUUID().replace(/-/g, "").slice(0, 24)}`,
    name: call.name,
    arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
  }));
}

function usageOf(reply: FakeCompletionReply, body: { messages?: ChatMessage[] }) {
  const completion =
    reply.usage?.completionTokens ??
    countFakeTokens(reply.text ?? "") +
      toolCallsOf(reply).reduce((sum, call) => sum + countFakeTokens(call.name) + countFakeTokens(call.arguments), 0);
  const prompt = reply.usage?.promptTokens ?? promptTokens(body);
  // As OpenAI reports them: the cached part of the prompt and the reasoning part of the completion, 0 when none.
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: reply.usage?.cachedTokens ?? 0 },
    completion_tokens_details: { reasoning_tokens: reply.usage?.reasoningTokens ?? 0 },
  };
}

async function answerFailure(reply: FakeFailureReply, response: ServerResponse, closed: AbortSignal) {
  if (!(await wait(reply.delayMs ?? 0, closed))) return;
  const body = reply.body ?? {
    error: { message: `Fake provider failure ${reply.status}`, type: "server_error", param: null, code: null },
  };
  if (typeof body === "string") {
    response.writeHead(reply.status, { "content-type": "text/plain", ...reply.headers });
    response.end(body);
  } else {
    sendJson(response, reply.status, body, reply.headers);
  }
}

async function answerCompletion(
  reply: FakeCompletionReply,
  body: { messages?: ChatMessage[]; model?: string },
  response: ServerResponse,
  closed: AbortSignal,
) {
  const calls = toolCallsOf(reply);
  const finishReason = calls.length > 0 ? "tool_calls" : "stop";
  // Generating takes as long as streaming the same reply would (`chunkDelayMs` between its pieces).
  const pieces = deltasOf(reply).length;
  const failure = reply.failMidStream;
  const chunks = failure ? Math.min(failure.afterChunks, pieces) : pieces;
  const generationMs = (reply.delayMs ?? 0) + Math.max(0, chunks - 1) * (reply.chunkDelayMs ?? 0);
  if (!(await wait(generationMs, closed))) return;
  if (failure) {
    if (failure.kind === "disconnect") response.socket?.destroy();
    else sendJson(response, 503, { error: { message: failure.message ?? "Fake failure", type: "server_error" } });
    return;
  }
  sendJson(response, 200, {
    id: `chatcmpl-${randomUUID()}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: body?.model ?? FAKE_MODEL,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: reply.text ?? (calls.length > 0 ? null : ""),
          ...(calls.length > 0
            ? {
                tool_calls: calls.map((call) => ({
                  id: call.id,
                  type: "function",
                  function: { name: call.name, arguments: call.arguments },
                })),
              }
            : {}),
        },
        finish_reason: finishReason,
      },
    ],
    usage: usageOf(reply, body),
  });
}

/** The pieces a reply streams in: its words, then each tool call's head and its arguments in two fragments. */
function deltasOf(reply: FakeCompletionReply): Record<string, unknown>[] {
  const deltas: Record<string, unknown>[] = [];
  for (const piece of (reply.text ?? "").match(/\s*\S+\s*|\s+/g) ?? []) deltas.push({ content: piece });
  toolCallsOf(reply).forEach((call, index) => {
    deltas.push({
      tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }],
    });
    // Arguments arrive in two fragments, as real providers split them.
    const half = Math.ceil(call.arguments.length / 2);
    for (const part of [call.arguments.slice(0, half), call.arguments.slice(half)]) {
      if (part) deltas.push({ tool_calls: [{ index, function: { arguments: part } }] });
    }
  });
  return deltas;
}

async function streamCompletion(
  reply: FakeCompletionReply,
  body: { messages?: ChatMessage[]; model?: string; stream_options?: { include_usage?: boolean } },
  response: ServerResponse,
  closed: AbortSignal,
) {
  const id = `chatcmpl-${randomUUID()}`;
  const created = Math.floor(Date.now() / 1000);
  const model = body?.model ?? FAKE_MODEL;
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({
    id,
    object: "chat.completion.chunk",
    created,
    model,
    system_fingerprint: null,
    choices,
    ...extra,
  });
  const send = (data: unknown) =>
    new Promise<void>((resolve) => {
      if (closed.aborted) return resolve();
      const done = () => {
        closed.removeEventListener("abort", done);
        resolve();
      };
      closed.addEventListener("abort", done, { once: true });
      response.write(`data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`, done);
    });

  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  response.flushHeaders();
  if (!(await wait(reply.delayMs ?? 0, closed))) return;

  const calls = toolCallsOf(reply);
  const deltas = deltasOf(reply);

  await send(chunk([{ index: 0, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: null }]));
  for (let i = 0; i < deltas.length; i++) {
    const failure = reply.failMidStream;
    if (failure && i === failure.afterChunks) {
      if (failure.kind === "disconnect") {
        // Let the client read what was sent, so the break really happens after those chunks.
        await wait(50, closed);
        response.socket?.destroy();
      } else {
        await send({ error: { message: failure.message ?? "Fake stream failure", type: "server_error", code: "503" } });
        response.end();
      }
      return;
    }
    if (i > 0 && !(await wait(reply.chunkDelayMs ?? 0, closed))) return;
    await send(chunk([{ index: 0, delta: deltas[i], logprobs: null, finish_reason: null }]));
  }
  await send(chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: calls.length > 0 ? "tool_calls" : "stop" }]));
  if (body?.stream_options?.include_usage) await send(chunk([], { usage: usageOf(reply, body) }));
  await send("[DONE]");
  response.end();
}

/** How an OpenAI-compatible server words its refusal of a prompt over the window (each one's real status and body). */
export type OverflowStyle = "openai" | "vllm" | "litellm" | "ollama";

export interface FakeOpenAIOptions {
  /**
   * Tokens the model accepts (prompt tokens as this fake counts them, `promptTokens`, plus `max_tokens`): a longer
   * request is refused as the real servers refuse it. Unlimited when absent.
   */
  contextWindow?: number;
  /** Windows of particular models (by the request's `model`), over `contextWindow`. */
  contextWindows?: Record<string, number>;
  overflowStyle?: OverflowStyle;
  /** Refusal styles of particular models, over `overflowStyle`. */
  overflowStyles?: Record<string, OverflowStyle>;
  /** Models that take images (in `user` messages only); any image sent to another model is refused. */
  visionModels?: string[];
}

/** The real bodies: OpenAI and LiteLLM proxy `context_length_exceeded`, vLLM `BadRequestError`, Ollama's message. */
export function overflowReply(style: OverflowStyle, window: number, requested: number): FakeFailureReply {
  const sentence =
    `This model's maximum context length is ${window} tokens. However, your messages resulted in ${requested} ` +
    "tokens. Please reduce the length of the messages.";
  switch (style) {
    case "openai":
      return {
        status: 400,
        body: {
          error: {
            message: sentence,
            type: "invalid_request_error",
            param: "messages",
            code: "context_length_exceeded",
          },
        },
      };
    case "vllm":
      return {
        status: 400,
        body: { object: "error", message: sentence, type: "BadRequestError", param: null, code: 400 },
      };
    case "litellm":
      return {
        status: 400,
        body: {
          error: {
            message: `litellm.ContextWindowExceededError: litellm.BadRequestError: OpenAIException - ${sentence}`,
            type: null,
            param: null,
            code: "400",
          },
        },
      };
    case "ollama":
      return {
        status: 400,
        body: {
          error: {
            message: "the input length exceeds the context length",
            type: "invalid_request_error",
            param: null,
            code: null,
          },
        },
      };
  }
}

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const requests: FakeRequest[] = [];
  const queue: FakeReplyScript[] = [];
  let responder: FakeReplyScript | undefined;

  const server = createServer(async (request, response) => {
    const closed = new AbortController();
    let recorded: FakeRequest | undefined;
    response.on("close", () => {
      closed.abort();
      if (recorded) recorded.outcome = response.writableFinished ? "completed" : "client-closed";
      if (recorded && response.headersSent) recorded.status = response.statusCode;
    });
    try {
      const path = new URL(request.url ?? "/", "http://localhost").pathname;
      const body = await readBody(request);
      recorded = { method: request.method ?? "GET", path, headers: flattenHeaders(request), outcome: "pending", body };
      requests.push(recorded);

      if (request.method === "GET" && path === "/v1/models") {
        sendJson(response, 200, {
          object: "list",
          data: [{ id: FAKE_MODEL, object: "model", created: 0, owned_by: "fake-openai" }],
        });
        return;
      }
      if (request.method !== "POST" || path !== "/v1/chat/completions") {
        sendJson(response, 404, {
          error: { message: `No route ${request.method} ${path}`, type: "invalid_request_error" },
        });
        return;
      }

      const invalid = invalidContent(recorded.body, options.visionModels ?? []);
      if (invalid) {
        sendJson(response, 400, { error: { message: invalid, type: "invalid_request_error", param: "messages" } });
        return;
      }
      const window = options.contextWindows?.[String(recorded.body?.model)] ?? options.contextWindow;
      if (window !== undefined) {
        const requested =
          promptTokens(recorded.body) + Number(recorded.body?.max_tokens ?? recorded.body?.max_completion_tokens ?? 0);
        if (requested > window) {
          const style = options.overflowStyles?.[String(recorded.body?.model)] ?? options.overflowStyle ?? "openai";
          const refusal = overflowReply(style, window, requested);
          return await answerFailure(refusal, response, closed.signal);
        }
      }
      const script = queue.shift() ?? responder;
      const reply: FakeReply =
        script === undefined
          ? { text: lastUserText(recorded.body) }
          : typeof script === "function"
            ? script(recorded)
            : script;
      if ("hang" in reply) return;
      if ("status" in reply) return await answerFailure(reply, response, closed.signal);
      if (reply.after) await reply.after;
      if (recorded.body?.stream === true) return await streamCompletion(reply, recorded.body, response, closed.signal);
      return await answerCompletion(reply, recorded.body, response, closed.signal);
    } catch (error) {
      if (!response.headersSent) sendJson(response, 500, { error: { message: String(error), type: "fake_error" } });
      else response.destroy();
    }
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    respondWith: (script) => {
      responder = script;
    },
    pendingReplies: () => queue.length,
    reset: () => {
      requests.length = 0;
      queue.length = 0;
      responder = undefined;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
