/**
 * Outbound HTTP for calls made on someone's behalf, fenced by the address policy. Every connection — the first request
 * and every redirect hop, whoever follows it — resolves its host once, checks every address it resolves to, and
 * connects to the address that was checked: there is no second resolution, so DNS rebinding cannot get through.
 * Operator-configured calls (model providers) do not use this.
 */
import { lookup } from "node:dns/promises";
import { Agent, buildConnector, type Dispatcher, fetch as undiciFetch } from "undici";
import { type AddressPolicy, createAddressPolicy, EGRESS_ALLOW_VARIABLE, parseIpLiteral } from "./address-policy.js";

/** Host name → its addresses (IPv4 and IPv6, in the order to try). */
export type Resolver = (hostname: string) => Promise<string[]>;

/** The fetch signature of the platform (and of the MCP SDK's `fetch` option). */
export type OutboundFetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

export interface OutboundOptions {
  /** `EGRESS_ALLOW_CIDRS`: ranges opened although they are loopback, private, link-local… */
  allowCidrs?: string | readonly string[];
  /** Defaults to the system resolver (`getaddrinfo`, so /etc/hosts applies). Tests inject their own. */
  resolve?: Resolver;
  /** Bounds resolution plus TCP/TLS connection (default 10 s). */
  connectTimeoutMs?: number;
}

export interface Outbound {
  /** `fetch` whose connections only go to allowed addresses; a refusal rejects with a cause `OutboundAddressRefused`. */
  fetch: OutboundFetch;
  /**
   * Resolves a host (or parses an IP literal in any spelling) and checks it: the address to connect to. For callers
   * that open connections themselves (a browser proxy, a sandbox's egress). Throws `OutboundAddressRefused`.
   */
  resolveChecked(hostname: string): Promise<string>;
  /** An undici dispatcher with the same guard, for undici's `request`/`stream` APIs. */
  dispatcher: Dispatcher;
  policy: AddressPolicy;
  close(): Promise<void>;
}

/** A connection refused by the address policy. The message names the address class and the variable to set. */
export class OutboundAddressRefused extends Error {
  override readonly name = "OutboundAddressRefused";
  constructor(
    readonly host: string,
    readonly address: string,
    readonly addressClass: string,
    description: string,
    literal: boolean,
  ) {
    const subject = literal
      ? host === address
        ? address
        : `${host} (${address})`
      : `${host} resolves to ${address}, which`;
    const cidr = `${address}/${address.includes(":") ? 128 : 32}`;
    super(
      `Refused: ${subject} is ${description}; calls made on an agent's or user's behalf may not reach it. ` +
        `The operator can open it with ${EGRESS_ALLOW_VARIABLE} (for example ${EGRESS_ALLOW_VARIABLE}=${cidr}).`,
    );
  }
}

/** The policy refusal behind an error (`fetch failed` and SDK errors keep it in their `cause` chain). */
export function findAddressRefusal(error: unknown): OutboundAddressRefused | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current; depth++) {
    if (current instanceof OutboundAddressRefused) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function createOutbound(options: OutboundOptions = {}): Outbound {
  const policy = createAddressPolicy(options.allowCidrs);
  const resolve = options.resolve ?? systemResolver;
  const timeoutMs = options.connectTimeoutMs ?? 10_000;

  async function resolveChecked(hostname: string): Promise<string> {
    const host = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
    // An IP literal in any spelling (`127.1`, `0x7f000001`): resolvers would read it as that address too.
    const literal = parseIpLiteral(host);
    const addresses = literal ? [literal.toString()] : await withTimeout(resolve(host), timeoutMs, `resolving ${host}`);
    if (addresses.length === 0) throw new Error(`${host} did not resolve to any address`);
    let first: string | undefined;
    // Refused when any address is refused: a name cannot mix a public address with an internal one.
    for (const candidate of addresses) {
      const verdict = policy.check(candidate);
      if (!verdict.allowed)
        throw new OutboundAddressRefused(
          host,
          verdict.address,
          verdict.addressClass,
          verdict.description,
          literal !== null,
        );
      first ??= verdict.address;
    }
    return first!;
  }

  const connector = buildConnector({ timeout: timeoutMs });
  const dispatcher = new Agent({
    connect(connectOptions, callback) {
      resolveChecked(connectOptions.hostname).then(
        // `host` keeps the name, so TLS still sends it as SNI and verifies the certificate against it.
        (address) => connector({ ...connectOptions, hostname: address }, callback),
        (error: Error) => callback(error, null),
      );
    },
  });

  const guardedFetch: OutboundFetch = (input, init) =>
    undiciFetch(input, { ...(init as object), dispatcher } as Parameters<
      typeof undiciFetch
    >[1]) as unknown as Promise<Response>;

  return {
    fetch: guardedFetch,
    resolveChecked,
    dispatcher,
    policy,
    close: () => dispatcher.close(),
  };
}
