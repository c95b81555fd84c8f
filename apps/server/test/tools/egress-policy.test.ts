import { describe, expect, it } from "vitest";
import {
  checkEgress,
  type EgressPolicy,
  mergeEgressPolicies,
  parseDomainPattern,
} from "../../src/governance/egress-policy.js";

function allowed(workspace: EgressPolicy | null, agent: EgressPolicy | null, url: string): boolean {
  return checkEgress(mergeEgressPolicies(workspace, agent), url).allowed;
}

describe("parseDomainPattern", () => {
  it.each([
    ["example.com", { any: false, wildcard: false, host: "example.com" }],
    ["  EXAMPLE.com. ", { any: false, wildcard: false, host: "example.com" }],
    ["*.Example.com", { any: false, wildcard: true, host: "example.com" }],
    ["example.com:8443", { any: false, wildcard: false, host: "example.com", port: 8443 }],
    ["bücher.de", { any: false, wildcard: false, host: "xn--bcher-kva.de" }],
    ["*.bücher.de", { any: false, wildcard: true, host: "xn--bcher-kva.de" }],
    ["127.0.0.1", { any: false, wildcard: false, host: "127.0.0.1" }],
    ["0x7f.1", { any: false, wildcard: false, host: "127.0.0.1" }],
    ["::1", { any: false, wildcard: false, host: "[::1]" }],
    ["[0:0::1]", { any: false, wildcard: false, host: "[::1]" }],
    ["[::1]:8080", { any: false, wildcard: false, host: "[::1]", port: 8080 }],
    ["*", { any: true, wildcard: false, host: "*" }],
  ])("parses %j", (raw, expected) => {
    expect(parseDomainPattern(raw)).toEqual({ raw, ...expected });
  });

  it.each([
    "",
    "exa mple.com",
    "example.com/path",
    "user@example.com",
    "*.*.example.com",
    "ex*ample.com",
    "example.com:0",
    "example.com:99999",
    "example.com:",
    "example.com:http",
    "*.127.0.0.1",
    "*.[::1]",
    ".example.com",
  ])("rejects %j", (raw) => {
    expect(parseDomainPattern(raw)).toBeNull();
  });
});

describe("checkEgress with one policy", () => {
  it("allows everything when there is no policy", () => {
    expect(allowed(null, null, "https://anything.example.org/x")).toBe(true);
    expect(allowed({}, {}, "http://127.0.0.1:9/")).toBe(true);
  });

  it("matches exact hosts case-insensitively, ignoring a trailing dot and the port", () => {
    const ws = { allowedDomains: ["Example.COM"] };
    expect(allowed(ws, null, "https://example.com/")).toBe(true);
    expect(allowed(ws, null, "https://EXAMPLE.com./a")).toBe(true);
    expect(allowed(ws, null, "http://example.com:8080/")).toBe(true);
    expect(allowed(ws, null, "https://api.example.com/")).toBe(false);
    expect(allowed(ws, null, "https://example.com.evil.org/")).toBe(false);
    expect(allowed(ws, null, "https://notexample.com/")).toBe(false);
  });

  it("wildcards match subdomains at any depth but not the apex", () => {
    const ws = { allowedDomains: ["*.example.com"] };
    expect(allowed(ws, null, "https://api.example.com/")).toBe(true);
    expect(allowed(ws, null, "https://a.b.example.com/")).toBe(true);
    expect(allowed(ws, null, "https://example.com/")).toBe(false);
    expect(allowed(ws, null, "https://badexample.com/")).toBe(false);
  });

  it("compares internationalised names in punycode", () => {
    expect(allowed({ allowedDomains: ["bücher.de"] }, null, "https://xn--bcher-kva.de/")).toBe(true);
    expect(allowed({ allowedDomains: ["xn--bcher-kva.de"] }, null, "https://BÜCHER.de/")).toBe(true);
    expect(allowed({ deniedDomains: ["*.bücher.de"] }, null, "https://shop.Bücher.de/")).toBe(false);
  });

  it("a pattern with a port matches only that effective port", () => {
    const ws = { allowedDomains: ["example.com:8443", "plain.example:80"] };
    expect(allowed(ws, null, "https://example.com:8443/")).toBe(true);
    expect(allowed(ws, null, "https://example.com/")).toBe(false);
    expect(allowed(ws, null, "http://plain.example/")).toBe(true);
    expect(allowed(ws, null, "https://plain.example/")).toBe(false);
    expect(allowed({ deniedDomains: ["example.com:443"] }, null, "https://example.com/")).toBe(false);
    expect(allowed({ deniedDomains: ["example.com:443"] }, null, "http://example.com/")).toBe(true);
  });

  it("compares IP literals in canonical form and never matches them with wildcards", () => {
    expect(allowed({ deniedDomains: ["127.0.0.1"] }, null, "http://2130706433/")).toBe(false);
    expect(allowed({ deniedDomains: ["127.0.0.1"] }, null, "http://0x7f.0.0.1:8080/")).toBe(false);
    expect(allowed({ deniedDomains: ["::1"] }, null, "http://[0:0:0:0:0:0:0:1]/")).toBe(false);
    expect(allowed({ allowedDomains: ["[::1]:3000"] }, null, "http://[::1]:3000/")).toBe(true);
    expect(allowed({ allowedDomains: ["*.0.0.1"] }, null, "http://127.0.0.1/")).toBe(false);
  });

  it("`*` matches every host; an empty allowlist matches none", () => {
    expect(allowed({ allowedDomains: ["*"] }, null, "https://x.y/")).toBe(true);
    expect(allowed({ allowedDomains: [] }, null, "https://x.y/")).toBe(false);
    expect(allowed({ allowedDomains: ["not a host"] }, null, "https://x.y/")).toBe(false);
  });

  it("refuses other schemes, credentials and garbage with a reason", () => {
    const policy = mergeEgressPolicies(null, null);
    expect(checkEgress(policy, "ftp://example.com/")).toMatchObject({ allowed: false, reason: /http and https/ });
    expect(checkEgress(policy, "file:///etc/passwd")).toMatchObject({ allowed: false });
    expect(checkEgress(policy, "https://u:p@example.com/")).toMatchObject({ allowed: false, reason: /credentials/ });
    expect(checkEgress(policy, "not a url")).toMatchObject({ allowed: false, reason: /valid absolute URL/ });
  });
});

describe("mergeEgressPolicies", () => {
  it("denied is the union of both deny lists", () => {
    const ws = { deniedDomains: ["a.test"] };
    const agent = { deniedDomains: ["b.test"] };
    expect(allowed(ws, agent, "https://a.test/")).toBe(false);
    expect(allowed(ws, agent, "https://b.test/")).toBe(false);
    expect(allowed(ws, agent, "https://c.test/")).toBe(true);
  });

  it("the agent cannot re-allow what the workspace denies", () => {
    expect(
      allowed({ deniedDomains: ["*.corp.test"] }, { allowedDomains: ["db.corp.test"] }, "https://db.corp.test/"),
    ).toBe(false);
  });

  it("allowed is the intersection when both have allowlists", () => {
    const ws = { allowedDomains: ["*.example.com", "docs.test"] };
    const agent = { allowedDomains: ["api.example.com", "other.test"] };
    expect(allowed(ws, agent, "https://api.example.com/")).toBe(true);
    expect(allowed(ws, agent, "https://www.example.com/")).toBe(false); // workspace only
    expect(allowed(ws, agent, "https://docs.test/")).toBe(false); // workspace only
    expect(allowed(ws, agent, "https://other.test/")).toBe(false); // agent only: cannot widen
  });

  it("whichever side has an allowlist applies when only one has", () => {
    expect(allowed({ allowedDomains: ["a.test"] }, { deniedDomains: ["b.test"] }, "https://a.test/")).toBe(true);
    expect(allowed({ allowedDomains: ["a.test"] }, {}, "https://z.test/")).toBe(false);
    expect(allowed({}, { allowedDomains: ["a.test"] }, "https://a.test/")).toBe(true);
    expect(allowed({}, { allowedDomains: ["a.test"] }, "https://z.test/")).toBe(false);
  });

  it("names the rule and the policy that refused", () => {
    const policy = mergeEgressPolicies({ deniedDomains: ["*.evil.test"] }, { allowedDomains: ["good.test"] });
    expect(checkEgress(policy, "https://x.evil.test/")).toEqual({
      allowed: false,
      reason: 'Refused by the workspace egress policy: host x.evil.test matches the deny rule "*.evil.test"',
      rule: { source: "workspace", kind: "deny", pattern: "*.evil.test" },
    });
    expect(checkEgress(policy, "https://other.test:8080/")).toEqual({
      allowed: false,
      reason:
        "Refused by the agent's egress policy: host other.test:8080 is not in its allowlist (allowedDomains: good.test)",
      rule: { source: "agent", kind: "allowlist" },
    });
    expect(checkEgress(policy, "https://good.test/")).toEqual({ allowed: true, host: "good.test", port: 443 });
  });
});
