/**
 * Egress policy: which hosts the platform may reach on an agent's behalf (web_fetch, serverless tools).
 *
 * Pure module. The effective policy of a session is the workspace policy merged with the agent's `egressPolicy`, and
 * the agent's can only narrow it:
 * - denied: the union of both deny lists;
 * - allowed: a host must match every allowlist present (the intersection when both have one, else whichever has one;
 *   no allowlist at all means every host not denied).
 *
 * Patterns (case-insensitive; internationalised names are compared in their ASCII/punycode form):
 * - `example.com`        exactly that host, any port;
 * - `*.example.com`      any subdomain of example.com at any depth, not example.com itself;
 * - `example.com:8443`   that host on that port only (the URL's effective port: 80/443 when it names none);
 * - `127.0.0.1`, `[::1]`, `::1`  IP literals, compared in their canonical form (`0x7f.1` is 127.0.0.1);
 * - `*`                  every host.
 * A pattern that is not a valid host matches nothing.
 */

export interface EgressPolicy {
  allowedDomains?: string[];
  deniedDomains?: string[];
}

export type PolicySource = "workspace" | "agent";

export interface DomainPattern {
  /** The pattern as written. */
  raw: string;
  any: boolean;
  wildcard: boolean;
  /** Canonical host (lower case, punycode, IP literals normalised, IPv6 in brackets, no trailing dot). */
  host: string;
  port?: number;
}

export interface EgressRule {
  source: PolicySource;
  pattern: DomainPattern;
}

export interface MergedEgressPolicy {
  denied: EgressRule[];
  /** A host must match at least one rule of every list. */
  allowlists: { source: PolicySource; rules: DomainPattern[] }[];
}

export type EgressDecision =
  | { allowed: true; host: string; port: number }
  | { allowed: false; reason: string; rule?: { source: PolicySource; kind: "deny" | "allowlist"; pattern?: string } };

const FORBIDDEN_HOST_CHARS = /[\s/?#@\\%*]/;

function isIpLiteral(host: string): boolean {
  return host.startsWith("[") || /^\d{1,3}(\.\d{1,3}){3}$/.test(host);
}

function canonicalHost(host: string): string | null {
  if (!host || FORBIDDEN_HOST_CHARS.test(host)) return null;
  let parsed: URL;
  try {
    parsed = new URL(`http://${host}/`);
  } catch {
    return null;
  }
  const name = parsed.hostname.replace(/\.$/, "");
  return name && !name.startsWith(".") ? name : null;
}

function parsePort(text: string | undefined): number | undefined | null {
  if (text === undefined) return undefined;
  if (!/^\d{1,5}$/.test(text)) return null;
  const port = Number(text);
  return port >= 1 && port <= 65535 ? port : null;
}

/** Parses one pattern; `null` when it is not a valid host pattern. */
export function parseDomainPattern(raw: string): DomainPattern | null {
  let text = raw.trim().toLowerCase();
  if (text === "*") return { raw, any: true, wildcard: false, host: "*" };
  const wildcard = text.startsWith("*.");
  if (wildcard) text = text.slice(2);

  let hostPart: string;
  let portText: string | undefined;
  const bracketed = /^\[([^\]]+)\](?::([^:]*))?$/.exec(text);
  if (bracketed) {
    hostPart = `[${bracketed[1]}]`;
    portText = bracketed[2];
  } else if ((text.match(/:/g) ?? []).length > 1) {
    hostPart = `[${text}]`; // a bare IPv6 literal
  } else {
    const [host, port] = text.split(":");
    hostPart = host!;
    portText = port;
  }
  const port = parsePort(portText);
  if (port === null) return null;
  const host = canonicalHost(hostPart);
  if (!host) return null;
  if (wildcard && isIpLiteral(host)) return null;
  return { raw, any: false, wildcard, host, ...(port !== undefined ? { port } : {}) };
}

function parseList(patterns: string[]): DomainPattern[] {
  return patterns.map(parseDomainPattern).filter((p): p is DomainPattern => p !== null);
}

/** Merges the workspace policy with the agent's override, which can only narrow it. */
export function mergeEgressPolicies(
  workspace: EgressPolicy | null | undefined,
  agent: EgressPolicy | null | undefined,
): MergedEgressPolicy {
  const merged: MergedEgressPolicy = { denied: [], allowlists: [] };
  for (const [source, policy] of [
    ["workspace", workspace],
    ["agent", agent],
  ] as const) {
    if (!policy) continue;
    for (const pattern of parseList(policy.deniedDomains ?? [])) merged.denied.push({ source, pattern });
    // An allowlist whose every entry is invalid still allows nothing: keep it even when empty after parsing.
    if (policy.allowedDomains) merged.allowlists.push({ source, rules: parseList(policy.allowedDomains) });
  }
  return merged;
}

export function matchesPattern(pattern: DomainPattern, host: string, port: number): boolean {
  if (pattern.any) return true;
  if (pattern.port !== undefined && pattern.port !== port) return false;
  if (pattern.wildcard) return !isIpLiteral(host) && host.endsWith(`.${pattern.host}`);
  return host === pattern.host;
}

const DEFAULT_PORTS: Record<string, number> = { "http:": 80, "https:": 443 };

function describeList(rules: DomainPattern[]): string {
  if (rules.length === 0) return "an empty allowlist: no host is reachable";
  const shown = rules.slice(0, 10).map((r) => r.raw.trim());
  return `allowedDomains: ${shown.join(", ")}${rules.length > 10 ? `, … (${rules.length} in all)` : ""}`;
}

function policyName(source: PolicySource): string {
  return source === "workspace" ? "the workspace egress policy" : "the agent's egress policy";
}

/** Decides whether `url` may be requested under `policy`. Only http(s) URLs without credentials are ever allowed. */
export function checkEgress(policy: MergedEgressPolicy, url: string | URL): EgressDecision {
  let target: URL;
  try {
    target = typeof url === "string" ? new URL(url) : url;
  } catch {
    return { allowed: false, reason: `Not a valid absolute URL: ${String(url).slice(0, 200)}` };
  }
  const defaultPort = DEFAULT_PORTS[target.protocol];
  if (defaultPort === undefined) {
    return { allowed: false, reason: `Only http and https URLs are allowed (got ${target.protocol})` };
  }
  if (target.username || target.password) {
    return { allowed: false, reason: "URLs with embedded credentials (user:password@) are not allowed" };
  }
  const host = target.hostname.replace(/\.$/, "");
  const port = target.port ? Number(target.port) : defaultPort;
  const hostLabel = `${host}${target.port ? `:${port}` : ""}`;

  for (const rule of policy.denied) {
    if (matchesPattern(rule.pattern, host, port)) {
      return {
        allowed: false,
        reason: `Refused by ${policyName(rule.source)}: host ${hostLabel} matches the deny rule "${rule.pattern.raw.trim()}"`,
        rule: { source: rule.source, kind: "deny", pattern: rule.pattern.raw },
      };
    }
  }
  for (const list of policy.allowlists) {
    if (!list.rules.some((pattern) => matchesPattern(pattern, host, port))) {
      return {
        allowed: false,
        reason: `Refused by ${policyName(list.source)}: host ${hostLabel} is not in its allowlist (${describeList(list.rules)})`,
        rule: { source: list.source, kind: "allowlist" },
      };
    }
  }
  return { allowed: true, host, port };
}
