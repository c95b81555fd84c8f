import { checkEgress } from "../../../governance/index.js";
import { findAddressRefusal } from "../../../lib/outbound/index.js";
import type { PinnedServerlessTool } from "../../../serverless-tools/index.js";
import { openVaultSecrets } from "../../../vaults/index.js";
import { sessionEgressPolicy } from "../egress/session-egress.js";
import { callSignal, decodeText, describeFetchError, readBounded, USER_AGENT } from "../http/outbound.js";
import { fail, ok } from "../tool-result.js";
import type { ToolResult, ToolRunContext } from "../types.js";

export const SERVERLESS_CALL_LIMITS = {
  timeoutMs: 60_000,
  responseBytes: 100 * 1024,
} as const;

/** Each vault secret `KEY` is sent as the header `X-Secret-KEY` (HTTP header names are case-insensitive). */
export const SECRET_HEADER_PREFIX = "X-Secret-";

type SecretHeaders = { ok: true; headers: Record<string, string> } | { ok: false; message: string };

export function secretHeaders(secrets: Record<string, string>): SecretHeaders {
  const headers: Record<string, string> = {};
  const seen = new Map<string, string>();
  for (const [key, value] of Object.entries(secrets)) {
    const name = `${SECRET_HEADER_PREFIX}${key}`;
    const clash = seen.get(name.toLowerCase());
    if (clash !== undefined) {
      return {
        ok: false,
        message: `Vault secrets "${clash}" and "${key}" map to the same header (names are case-insensitive)`,
      };
    }
    if (/[\r\n\0]/.test(value))
      return { ok: false, message: `Vault secret "${key}" cannot be sent as a header (line break)` };
    seen.set(name.toLowerCase(), key);
    headers[name] = value;
  }
  return { ok: true, headers };
}

/**
 * POSTs the tool input as JSON to the pinned version's URL. The URL must pass the session's egress policy and the
 * address it resolves to the outbound address policy (`ctx.outbound`); redirects are not followed (the request may carry vault secrets); any non-2xx answer is an error result.
 */
export async function callServerlessTool(
  tool: PinnedServerlessTool,
  input: unknown,
  run: ToolRunContext,
): Promise<ToolResult> {
  const policy = await sessionEgressPolicy(run);
  const decision = checkEgress(policy, tool.url);
  if (!decision.allowed) return fail(`${decision.reason}. Serverless tool ${tool.name} was not called.`);

  let secrets: Record<string, string> = {};
  if (tool.vaultId) secrets = await openVaultSecrets(run.ctx, run.session.workspaceId, tool.vaultId);
  const vaultHeaders = secretHeaders(secrets);
  if (!vaultHeaders.ok) return fail(`Serverless tool ${tool.name} was not called: ${vaultHeaders.message}`);

  const call = callSignal(run.signal, SERVERLESS_CALL_LIMITS.timeoutMs, `Serverless tool ${tool.name}`);
  try {
    const response = await run.ctx.outbound.fetch(tool.url, {
      method: "POST",
      redirect: "manual",
      signal: call.signal,
      headers: {
        ...vaultHeaders.headers,
        "Content-Type": "application/json",
        Accept: "application/json, text/plain;q=0.9, */*;q=0.5",
        "User-Agent": USER_AGENT,
        "X-Agent-Platform-Session-Id": run.session.id,
        "X-Agent-Platform-Tool-Use-Id": run.toolUseId,
        "X-Agent-Platform-Tool": `${tool.name}@${tool.version}`,
      },
      body: JSON.stringify(input ?? {}),
    });
    const body = await readBounded(response, SERVERLESS_CALL_LIMITS.responseBytes);
    let text = decodeText(body.bytes, response.headers.get("content-type"));
    if (body.truncated)
      text += `\n\n[truncated: only the first ${SERVERLESS_CALL_LIMITS.responseBytes} bytes were read]`;
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get("location");
      return fail(
        `Serverless tool ${tool.name} answered HTTP ${response.status} (redirects are not followed${location ? `; Location: ${location}` : ""})`,
      );
    }
    if (!response.ok) {
      return fail(`Serverless tool ${tool.name} failed with HTTP ${response.status}${text ? `:\n${text}` : ""}`);
    }
    return ok(text || `(empty response, HTTP ${response.status})`);
  } catch (error) {
    const reason = call.abortReason();
    if (reason) return fail(reason);
    const refusal = findAddressRefusal(error);
    if (refusal) return fail(`${refusal.message} Serverless tool ${tool.name} was not called.`);
    return fail(`Serverless tool ${tool.name} could not be reached: ${describeFetchError(error)}`);
  }
}
