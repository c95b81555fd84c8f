import http from "node:http";
import https from "node:https";
import { Readable } from "node:stream";

/** An idle kept-alive connection is closed after this long (undici's default), before a server drops it under a request. */
const KEEP_ALIVE_IDLE_MS = 4_000;

/**
 * Keep-alive connections to the model providers, shared by every call of the process. The agents' `timeout` applies to
 * idle connections; a request in progress has its own (`IDLE_TIMEOUT_MS`). No cap on sockets per origin: one model call
 * in flight is one connection, and calls in flight are bounded by what the worker runs (`WORKER_CONCURRENCY` turns,
 * `EXPERIMENT_CASE_CONCURRENCY` cases, their judges and guardrail checks; docs/operating.md, "Limits on a turn's path").
 * A cap here would be a second, hidden concurrency limit (it was 256: a 10 s model then held 1,000 turns to 4× its time).
 */
const AGENT_OPTIONS = {
  keepAlive: true,
  maxSockets: Number.POSITIVE_INFINITY,
  // Node keeps 256 idle connections per origin by default and closes the rest at once: after 1,000 calls that ended
  // together, the next 1,000 would open 744 new connections (a TCP and TLS handshake each). Idle ones close after
  // KEEP_ALIVE_IDLE_MS instead, so what is kept follows the recent concurrency.
  maxFreeSockets: Number.POSITIVE_INFINITY,
  timeout: KEEP_ALIVE_IDLE_MS,
};
const agents = {
  "http:": new http.Agent(AGENT_OPTIONS),
  "https:": new https.Agent(AGENT_OPTIONS),
};

/** The per-origin socket cap of the model providers' agents (for the tests: none). */
export const providerSocketsPerOrigin = agents["http:"].maxSockets;
/** Idle connections the agents keep per origin (for the tests: as many as were in use, until they idle out). */
export const providerIdleSocketsPerOrigin = agents["http:"].maxFreeSockets;

/** What undici's fetch allows a connection to wait for headers, or for the next body chunk. */
const IDLE_TIMEOUT_MS = 300_000;

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

function headerList(headers: RequestInit["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(headers).forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

function responseHeaders(raw: string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}

/**
 * The `fetch` the AI SDK's providers call, over `node:http(s)` with keep-alive agents: the same requests and responses
 * as the global fetch (undici), for about a third of its CPU per call — undici's fetch pipeline (request objects, web
 * streams) was a tenth of the server's CPU per turn. A JSON answer is read whole before the `Response` is made; an
 * event stream (`text/event-stream`) is handed over as it arrives. Network failures reject as undici's do
 * (`TypeError: fetch failed` with the socket error as `cause`), aborts with the signal's reason; redirects are not
 * followed (a provider's API answers where it is asked).
 */
export function providerFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const body = init.body ?? undefined;
  const plainBody = body === undefined || typeof body === "string" || body instanceof Uint8Array;
  // Anything else (a Request, a form or a stream body, another scheme) goes to the global fetch.
  if (input instanceof Request || !plainBody) return fetch(input, init);
  const url = new URL(input);
  const agent = agents[url.protocol as keyof typeof agents];
  if (!agent) return fetch(input, init);
  const signal = init.signal ?? undefined;
  return new Promise<Response>((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const transport = url.protocol === "https:" ? https : http;
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener("abort", onAbort);
      reject(signal?.aborted ? abortError(signal) : new TypeError("fetch failed", { cause: error }));
    };
    const request = transport.request(url, {
      method: init.method ?? "GET",
      headers: headerList(init.headers),
      agent,
      timeout: IDLE_TIMEOUT_MS,
    });
    const onAbort = () => {
      request.destroy(abortError(signal!) as Error);
      fail(abortError(signal!));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    request.on("timeout", () => request.destroy(Object.assign(new Error("socket idle"), { code: "ETIMEDOUT" })));
    request.on("error", fail);
    request.on("response", (res) => {
      const status = res.statusCode ?? 500;
      const headers = responseHeaders(res.rawHeaders);
      const answer = { status, statusText: res.statusMessage ?? "", headers };
      if ((res.headers["content-type"] ?? "").startsWith("text/event-stream")) {
        settled = true;
        // The stream's consumer reads (and cancels) it; an abort destroys the request and so errors the stream.
        res.on("close", () => signal?.removeEventListener("abort", onAbort));
        resolve(new Response(Readable.toWeb(res) as ReadableStream<Uint8Array>, answer));
        return;
      }
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", fail);
      res.on("close", () => {
        if (!res.complete) fail(Object.assign(new Error("other side closed"), { code: "ECONNRESET" }));
      });
      res.on("end", () => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener("abort", onAbort);
        const answerBody = status === 204 || status === 304 ? null : Buffer.concat(chunks);
        resolve(new Response(answerBody, answer));
      });
    });
    request.end(body as string | Uint8Array | undefined);
  });
}
