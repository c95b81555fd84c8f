/**
 * Outbound address policy: which IP addresses calls made on someone's behalf (web_fetch, serverless tools, MCP
 * servers, webhooks, …) may connect to. Pure module; parsing and ranges come from `ipaddr.js`.
 *
 * Only globally routable unicast addresses are allowed by default. Refused: loopback, private (RFC 1918), link-local
 * (169.254/16 and fe80::/10, where cloud metadata endpoints live), unique-local (fc00::/7), carrier-grade NAT
 * (100.64/10), unspecified, broadcast, multicast and the other reserved ranges. IPv6 forms that carry an IPv4 address
 * (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged by
 * that IPv4 address; Teredo is refused. The operator opens ranges with `EGRESS_ALLOW_CIDRS`.
 */
import ipaddr from "ipaddr.js";

export const EGRESS_ALLOW_VARIABLE = "EGRESS_ALLOW_CIDRS";

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Cidr = [Address, number];

export type AddressVerdict =
  | { allowed: true; address: string }
  | {
      allowed: false;
      /** The address in canonical form (an IPv4-mapped address as its IPv4 address). */
      address: string;
      /** `loopback`, `private`, `linkLocal`, `uniqueLocal`, `carrierGradeNat`, … (ipaddr.js range names). */
      addressClass: string;
      /** "a loopback address", "a private address (RFC 1918)", … */
      description: string;
    };

export interface AddressPolicy {
  /** Judges one IP address (any spelling ipaddr.js accepts: `127.1`, `0x7f000001`, `::ffff:7f00:1`, …). */
  check(address: string): AddressVerdict;
  /** The ranges opened by the operator, as written in canonical CIDR form. */
  readonly allowed: readonly string[];
}

const DESCRIPTIONS: Record<string, string> = {
  loopback: "a loopback address",
  private: "a private address (RFC 1918)",
  linkLocal: "a link-local address (cloud metadata endpoints live there)",
  uniqueLocal: "a unique-local address (fc00::/7)",
  carrierGradeNat: "a carrier-grade NAT address (100.64.0.0/10)",
  unspecified: "the unspecified address",
  broadcast: "the broadcast address",
  multicast: "a multicast address",
  teredo: "a Teredo address",
};

function describe(addressClass: string): string {
  return DESCRIPTIONS[addressClass] ?? `a reserved address (${addressClass})`;
}

/** Parses an IP literal in any spelling (brackets and an IPv6 zone allowed); `null` when it is a host name. */
export function parseIpLiteral(text: string): Address | null {
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  if (!ipaddr.isValid(bare)) return null;
  try {
    return ipaddr.parse(bare);
  } catch {
    return null;
  }
}

/** The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4), if it is one of those forms. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = address.parts;
  const fromParts = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const range = address.range();
  if (range === "ipv4Mapped" || range === "rfc6145" || range === "rfc6052") return fromParts(p[6]!, p[7]!);
  if (range === "6to4") return fromParts(p[1]!, p[2]!);
  // IPv4-compatible (::a.b.c.d, deprecated): the first 96 bits are zero; :: and ::1 are themselves.
  if (p.slice(0, 6).every((part) => part === 0) && range !== "unspecified" && range !== "loopback") {
    return fromParts(p[6]!, p[7]!);
  }
  return null;
}

/** The range name of an address, `unicast` meaning globally routable. */
function classify(address: Address): string {
  if (address.kind() === "ipv4") return address.range();
  const v6 = address as ipaddr.IPv6;
  const embedded = embeddedIPv4(v6);
  if (embedded) return embedded.range();
  return v6.range();
}

/** Parses `EGRESS_ALLOW_CIDRS`: comma-separated CIDRs or single addresses. Throws on an invalid entry. */
export function parseAllowCidrs(text: string | readonly string[] | undefined): Cidr[] {
  const entries = typeof text === "string" ? text.split(",") : (text ?? []);
  const cidrs: Cidr[] = [];
  for (const raw of entries) {
    const entry = raw.trim();
    if (!entry) continue;
    try {
      if (entry.includes("/")) {
        cidrs.push(ipaddr.parseCIDR(entry));
      } else {
        const address = ipaddr.parse(entry);
        cidrs.push([address, address.kind() === "ipv4" ? 32 : 128]);
      }
    } catch {
      throw new Error(
        `${EGRESS_ALLOW_VARIABLE}: "${entry}" is not a CIDR (examples: 127.0.0.0/8, 10.1.0.0/16, ::1/128, fd00::/8)`,
      );
    }
  }
  return cidrs;
}

function inAny(address: Address, cidrs: readonly Cidr[]): boolean {
  return cidrs.some(([network, bits]) => network.kind() === address.kind() && address.match(network, bits));
}

/** The policy for a set of opened ranges (`EGRESS_ALLOW_CIDRS`, empty by default). */
export function createAddressPolicy(allowCidrs?: string | readonly string[]): AddressPolicy {
  const cidrs = parseAllowCidrs(allowCidrs);
  return {
    allowed: cidrs.map(([network, bits]) => `${network.toString()}/${bits}`),
    check(text) {
      const parsed = parseIpLiteral(text);
      if (!parsed) {
        return { allowed: false, address: text, addressClass: "invalid", description: "not an IP address" };
      }
      const embedded = parsed.kind() === "ipv6" ? embeddedIPv4(parsed as ipaddr.IPv6) : null;
      // An IPv4-mapped address is the IPv4 address itself (that is where the socket goes).
      const address =
        embedded && (parsed as ipaddr.IPv6).isIPv4MappedAddress() ? embedded.toString() : parsed.toString();
      if (inAny(parsed, cidrs) || (embedded && inAny(embedded, cidrs))) return { allowed: true, address };
      const addressClass = classify(parsed);
      if (addressClass === "unicast") return { allowed: true, address };
      return { allowed: false, address, addressClass, description: describe(addressClass) };
    },
  };
}
