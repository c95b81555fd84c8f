import { createHmac, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { streamResponse } from "./fake-openai-responses-stream.js";
import { countFakeTokens, fakeTokens } from "./fake-tokenizer.js";

/**
 * A real HTTP server on 127.0.0.1 speaking OpenAI's Responses API (`POST /v1/responses`; streamed with `stream: true`
 * as `fake-openai-responses-stream.ts` says), as the AI
 * SDK's `openai` provider calls it. Strict where the tests need it to be:
 * - with `reasoning.effort` on a model listed in `noReasoning`: 400 "Unsupported parameter: 'reasoning.effort' …";
 * - with `store: false`, a reasoning item comes back only when `include` asks for `reasoning.encrypted_content`; a
 *   follow-up whose reasoning item's `encrypted_content` is altered is refused (400 `invalid_encrypted_content`), and
 *   so is a `function_call` sent back without the reasoning item that preceded it;
 * - prompt caching as OpenAI reports it: requests with the same `prompt_cache_key` read the longest prefix (in tokens,
 *   1024 at least, in steps of 128) they share with an earlier one, in `input_tokens_details.cached_tokens`;
 * - tokens counted at least as a real tokenizer counts them (`fake-tokenizer.ts`): the instructions and input items as
 *   sent (JSON), and the tool definitions.
 */
export interface FakeResponsesReply {
  reasoning?: string;
  text?: string;
  toolCalls?: { name: string; input: Record<string, unknown> }[];
  /** When the request asks for a stream: wait between deltas. */
  chunkDelayMs?: number;
}

export interface FakeResponsesRequest {
  // biome-ignore lint/suspicious/noExplicitAny: recorded JSON bodies are inspected freely by tests
  body: any;
  status: number;
}

export interface FakeResponses {
  url: string;
  requests: FakeResponsesRequest[];
  close(): Promise<void>;
}

const sign = (id: string, text: string) =>
  createHmac("sha256", "fake-responses").update(`${id}:${text}`).digest("base64");
/** The prompt's tokens (instructions, then the input items as JSON), for the prefix cache and the usage. */
const tokensOf = (value: unknown): string[] => fakeTokens(JSON.stringify(value ?? ""));

type Item = { type?: string; id?: string; call_id?: string; encrypted_content?: string; summary?: { text: string }[] };

function refusal(body: { model?: string; input?: Item[]; reasoning?: { effort?: string } }, noReasoning: string[]) {
  if (body.reasoning?.effort && noReasoning.includes(String(body.model))) {
    return {
      message: "Unsupported parameter: 'reasoning.effort' is not supported with this model.",
      code: "unsupported_parameter",
    };
  }
  const input = body.input ?? [];
  for (const [i, item] of input.entries()) {
    if (item.type === "reasoning") {
      const text = (item.summary ?? []).map((s) => s.text).join("");
      if (item.encrypted_content !== sign(String(item.id), text)) {
        return {
          message: `The encrypted content for item ${item.id} could not be verified.`,
          code: "invalid_encrypted_content",
        };
      }
    }
    if (item.type === "function_call" && body.reasoning?.effort && input[i - 1]?.type !== "reasoning") {
      const previous = input.slice(0, i).findLast((x) => x.type === "reasoning");
      if (!previous) {
        return {
          message: `Item '${item.id ?? item.call_id}' of type 'function_call' was provided without its required 'reasoning' item.`,
          code: null,
        };
      }
    }
  }
  return null;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8") || "null");
}

function send(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { "content-type": "application/json", "x-request-id": `req_${randomUUID()}` });
  response.end(JSON.stringify(body));
}

export async function startFakeResponses(options: {
  reply: (request: FakeResponsesRequest) => FakeResponsesReply;
  noReasoning?: string[];
}): Promise<FakeResponses> {
  const requests: FakeResponsesRequest[] = [];
  const prefixes = new Map<string, string[][]>();
  const server = createServer(async (request, response) => {
    // biome-ignore lint/suspicious/noExplicitAny: a request body as sent
    const body = (await readJson(request)) as any;
    const recorded: FakeResponsesRequest = { body, status: 200 };
    requests.push(recorded);
    if (request.method !== "POST" || request.url !== "/v1/responses") {
      recorded.status = 404;
      return send(response, 404, {
        error: { message: "Not found", type: "invalid_request_error", param: null, code: null },
      });
    }
    const refused = refusal(body, options.noReasoning ?? []);
    if (refused) {
      recorded.status = 400;
      return send(response, 400, { error: { ...refused, type: "invalid_request_error", param: null } });
    }
    const prompt = tokensOf([body.instructions, body.input]);
    const toolTokens = Array.isArray(body.tools) && body.tools.length > 0 ? countFakeTokens(body.tools) : 0;
    let cached = 0;
    if (typeof body.prompt_cache_key === "string") {
      const seen = prefixes.get(body.prompt_cache_key) ?? [];
      for (const earlier of seen) {
        let same = 0;
        while (same < earlier.length && same < prompt.length && earlier[same] === prompt[same]) same++;
        if (same >= 1024) cached = Math.max(cached, 1024 + Math.floor((same - 1024) / 128) * 128);
      }
      prefixes.set(body.prompt_cache_key, [...seen, prompt]);
    }
    const reply = options.reply(recorded);
    const output: unknown[] = [];
    if (body.reasoning?.effort && reply.reasoning !== undefined) {
      const id = `rs_${randomUUID().replace(/-/g, "")}`;
      const encrypted = body.store === false && body.include?.includes("reasoning.encrypted_content");
      output.push({
        type: "reasoning",
        id,
        summary: [{ type: "summary_text", text: reply.reasoning }],
        ...(encrypted ? { encrypted_content: sign(id, reply.reasoning) } : {}),
      });
    }
    for (const call of reply.toolCalls ?? []) {
      const id = randomUUID().replace(/-/g, "");
      output.push({
        type: "function_call",
        id: `fc_${id}`,
        call_id: `call_${id}`,
        name: call.name,
        arguments: JSON.stringify(call.input),
        status: "completed",
      });
    }
    if (reply.text) {
      output.push({
        type: "message",
        id: `msg_${randomUUID().replace(/-/g, "")}`,
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: reply.text, annotations: [] }],
      });
    }
    const reasoningTokens = reply.reasoning ? countFakeTokens(reply.reasoning) : 0;
    const outputTokens =
      countFakeTokens(reply.text ?? "") +
      (reply.toolCalls ?? []).reduce((sum, c) => sum + countFakeTokens(c.name) + countFakeTokens(c.input), 0) +
      reasoningTokens;
    const answer = {
      id: `resp_${randomUUID().replace(/-/g, "")}`,
      object: "response",
      created_at: Math.floor(Date.now() / 1000),
      status: "completed",
      model: body.model,
      output,
      incomplete_details: null,
      usage: {
        input_tokens: prompt.length + toolTokens,
        input_tokens_details: { cached_tokens: cached },
        output_tokens: outputTokens,
        output_tokens_details: { reasoning_tokens: reasoningTokens },
        total_tokens: prompt.length + toolTokens + outputTokens,
      },
    };
    if (body.stream === true) return streamResponse(response, answer, reply.chunkDelayMs ?? 0);
    send(response, 200, answer);
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
