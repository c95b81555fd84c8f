import { z } from "zod";
import { checkEgress, type MergedEgressPolicy } from "../../../governance/index.js";
import { findAddressRefusal, type OutboundFetch } from "../../../lib/outbound/index.js";
import { defineBuiltinTool } from "../define-tool.js";
import { sessionEgressPolicy } from "../egress/session-egress.js";
import { htmlToText } from "../http/html-to-text.js";
import { callSignal, decodeText, describeFetchError, isTextual, readBounded, USER_AGENT } from "../http/outbound.js";
import { fail, ok } from "../tool-result.js";
import type { RuntimeTool } from "../types.js";

export const WEB_FETCH_LIMITS = {
  defaultMaxBytes: 100 * 1024,
  maxBytes: 1024 * 1024,
  maxRedirects: 5,
  timeoutMs: 30_000,
  urlLength: 4096,
} as const;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

const Input = z
  .object({
    url: z.string().min(1).max(WEB_FETCH_LIMITS.urlLength),
    maxBytes: z.number().int().min(1).max(WEB_FETCH_LIMITS.maxBytes).optional(),
  })
  .strict();

type Fetched = { ok: true; response: Response; url: URL; redirects: string[] } | { ok: false; message: string };

/**
 * GET with redirects followed by hand, so every hop is checked against the host-name policy before it is requested;
 * `fetch` checks the address each hop connects to.
 */
async function fetchWithinPolicy(
  fetch: OutboundFetch,
  start: string,
  policy: MergedEgressPolicy,
  signal: AbortSignal,
): Promise<Fetched> {
  let url: URL;
  try {
    url = new URL(start);
  } catch {
    return { ok: false, message: `Not a valid absolute URL: ${start.slice(0, 200)}` };
  }
  const redirects: string[] = [];
  for (;;) {
    const hop = redirects.length ? ` (redirect ${redirects.length} from ${redirects[redirects.length - 1]})` : "";
    const decision = checkEgress(policy, url);
    if (!decision.allowed) return { ok: false, message: `${decision.reason}${hop}. URL not fetched: ${url.href}` };
    let response: Response;
    try {
      response = await fetch(url, {
        method: "GET",
        redirect: "manual",
        signal,
        headers: {
          "User-Agent": USER_AGENT,
          Accept: "text/html, text/plain, application/json, text/*;q=0.9, */*;q=0.5",
        },
      });
    } catch (error) {
      const refusal = findAddressRefusal(error);
      if (!refusal) throw error;
      return { ok: false, message: `${refusal.message} URL not fetched: ${url.href}${hop}` };
    }
    const location = response.headers.get("location");
    if (!REDIRECT_STATUSES.has(response.status) || !location) return { ok: true, response, url, redirects };
    await response.body?.cancel().catch(() => {});
    if (redirects.length >= WEB_FETCH_LIMITS.maxRedirects) {
      return { ok: false, message: `Too many redirects (more than ${WEB_FETCH_LIMITS.maxRedirects}) from ${start}` };
    }
    redirects.push(url.href);
    try {
      url = new URL(location, url);
    } catch {
      return { ok: false, message: `Redirect to an invalid location: ${location.slice(0, 200)}` };
    }
  }
}

export function webFetchTool(): RuntimeTool {
  return defineBuiltinTool({
    name: "web_fetch",
    description:
      "Fetch a web page or HTTP(S) resource with GET and return its text (HTML is converted to readable text). " +
      "Only hosts allowed by the egress policy can be reached, and never internal addresses (loopback, private " +
      "networks, link-local); redirects are followed (each hop is checked). " +
      `The body is cut after \`maxBytes\` (default ${WEB_FETCH_LIMITS.defaultMaxBytes}, at most ${WEB_FETCH_LIMITS.maxBytes}). ` +
      "Binary content is not shown.",
    inputSchema: {
      type: "object",
      properties: {
        url: { type: "string", description: "Absolute http:// or https:// URL", maxLength: WEB_FETCH_LIMITS.urlLength },
        maxBytes: {
          type: "integer",
          minimum: 1,
          maximum: WEB_FETCH_LIMITS.maxBytes,
          description: `Read at most this many bytes of the body (default ${WEB_FETCH_LIMITS.defaultMaxBytes})`,
        },
      },
      required: ["url"],
      additionalProperties: false,
    },
    input: Input,
    async run(input, run) {
      const policy = await sessionEgressPolicy(run);
      const call = callSignal(run.signal, WEB_FETCH_LIMITS.timeoutMs, "web_fetch");
      try {
        const fetched = await fetchWithinPolicy(run.ctx.outbound.fetch, input.url, policy, call.signal);
        if (!fetched.ok) return fail(fetched.message);
        const { response, url, redirects } = fetched;
        const maxBytes = input.maxBytes ?? WEB_FETCH_LIMITS.defaultMaxBytes;
        const body = await readBounded(response, maxBytes);
        const contentType = response.headers.get("content-type");
        const header = [
          `URL: ${url.href}`,
          ...(redirects.length ? [`Redirected from: ${redirects[0]}`] : []),
          `Status: ${response.status} ${response.statusText}`.trimEnd(),
          `Content-Type: ${contentType ?? "(none)"}`,
        ];
        if (body.truncated) header.push(`Truncated: only the first ${maxBytes} bytes of the body were read`);
        let text: string;
        if (!isTextual(contentType, body.bytes)) {
          text = `(binary content, ${body.bytes.byteLength}${body.truncated ? "+" : ""} bytes, not shown)`;
        } else {
          text = decodeText(body.bytes, contentType);
          if (/html/i.test(contentType ?? "")) {
            text = htmlToText(text, url.href);
            header.push("Body: HTML converted to text");
          }
        }
        const content = `${header.join("\n")}\n\n${text}`;
        return response.status >= 400 ? fail(content) : ok(content);
      } catch (error) {
        const reason = call.abortReason();
        if (reason) return fail(reason);
        return fail(`Request to ${input.url.slice(0, 200)} failed: ${describeFetchError(error)}`);
      }
    },
  });
}
