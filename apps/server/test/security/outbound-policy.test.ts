import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createAddressPolicy,
  createOutbound,
  findAddressRefusal,
  type Outbound,
  OutboundAddressRefused,
  parseAllowCidrs,
} from "../../src/lib/outbound/index.js";

// Only pure checks name non-loopback addresses: the network tests below only ever connect to loopback.
describe("address policy (pure)", () => {
  const policy = createAddressPolicy();

  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["::1", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "linkLocal"],
    ["fe80::1", "linkLocal"],
    ["fd00::1", "uniqueLocal"],
    ["fc00::1", "uniqueLocal"],
    ["100.64.0.1", "carrierGradeNat"],
    ["0.0.0.0", "unspecified"],
    ["::", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["ff02::1", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["240.0.0.1", "reserved"],
    // IPv4 spellings that resolvers accept too.
    ["2130706433", "loopback"],
    ["0x7f000001", "loopback"],
    ["0177.0.0.1", "loopback"],
    ["0x7f.1", "loopback"],
    ["127.1", "loopback"],
    // IPv6 forms that carry an IPv4 address are judged by it.
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["[::ffff:169.254.169.254]", "linkLocal"],
    ["::ffff:10.0.0.1", "private"],
    ["::127.0.0.1", "loopback"],
    ["::7f00:1", "loopback"],
    ["64:ff9b::a9fe:a9fe", "linkLocal"],
    ["2002:0a00:0001::", "private"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "teredo"],
  ])("refuses %s (%s)", (address, addressClass) => {
    const verdict = policy.check(address);
    expect(verdict).toMatchObject({ allowed: false, addressClass });
  });

  it.each(["8.8.8.8", "1.1.1.1", "2001:4860:4860::8888", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:0808:0808::"])(
    "allows the public address %s",
    (address) => {
      expect(policy.check(address).allowed).toBe(true);
    },
  );

  it("opens exactly the ranges of EGRESS_ALLOW_CIDRS, IPv4-mapped forms included", () => {
    const opened = createAddressPolicy(" 127.0.0.0/8, 10.1.0.0/16 ,::1, fd00::/8");
    expect(opened.allowed).toEqual(["127.0.0.0/8", "10.1.0.0/16", "::1/128", "fd00::/8"]);
    for (const address of ["127.0.0.1", "::ffff:127.0.0.1", "10.1.200.3", "::1", "fd12::1"]) {
      expect(opened.check(address).allowed, address).toBe(true);
    }
    for (const address of ["10.2.0.1", "192.168.0.1", "169.254.169.254", "fe80::1"]) {
      expect(opened.check(address).allowed, address).toBe(false);
    }
    expect(opened.check("::ffff:127.0.0.1")).toEqual({ allowed: true, address: "127.0.0.1" });
  });

  it("refuses an invalid EGRESS_ALLOW_CIDRS entry, naming it", () => {
    expect(parseAllowCidrs("")).toEqual([]);
    expect(() => parseAllowCidrs("127.0.0.0/8,nonsense")).toThrow(/EGRESS_ALLOW_CIDRS: "nonsense" is not a CIDR/);
    expect(() => parseAllowCidrs("10.0.0.0/33")).toThrow(/EGRESS_ALLOW_CIDRS/);
    expect(() => createOutbound({ allowCidrs: "example.com" })).toThrow(/EGRESS_ALLOW_CIDRS/);
  });
});

interface Target {
  url: string;
  port: number;
  paths: string[];
  close(): Promise<void>;
}

async function listen(host: string, handler?: (path: string) => { status: number; location?: string }) {
  const paths: string[] = [];
  const server: Server = createServer((req, res) => {
    paths.push(req.url ?? "");
    const reply = handler?.(req.url ?? "") ?? { status: 200 };
    res.writeHead(reply.status, reply.location ? { Location: reply.location } : {});
    res.end(`reached ${host}`);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const target: Target = {
    url: `http://${host}:${port}`,
    port,
    paths,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return target;
}

async function refusalOf(promise: Promise<unknown>): Promise<OutboundAddressRefused> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  const refusal = findAddressRefusal(error);
  expect(refusal, `expected a refusal, got ${String(error)}`).toBeInstanceOf(OutboundAddressRefused);
  return refusal!;
}

describe("outbound fetch (real connections on loopback)", () => {
  let target: Target;
  const opened: Outbound[] = [];
  const outbound = (options: Parameters<typeof createOutbound>[0] = {}) => {
    const created = createOutbound(options);
    opened.push(created);
    return created;
  };

  beforeAll(async () => {
    target = await listen("127.0.0.1");
  });
  afterAll(async () => {
    await Promise.all(opened.map((o) => o.close()));
    await target.close();
  });

  it("refuses loopback in every spelling without EGRESS_ALLOW_CIDRS, and the target sees nothing", async () => {
    const guard = outbound();
    const spellings = [
      "127.0.0.1",
      "localhost",
      "[::ffff:127.0.0.1]",
      "[::ffff:7f00:1]",
      "2130706433",
      "0177.0.0.1",
      "0x7f.0.0.1",
      "127.1",
    ];
    for (const host of spellings) {
      const refusal = await refusalOf(guard.fetch(`http://${host}:${target.port}/${encodeURIComponent(host)}`));
      expect(refusal.addressClass, host).toBe("loopback");
      expect(refusal.message).toMatch(/loopback address/);
      expect(refusal.message).toMatch(/EGRESS_ALLOW_CIDRS=127\.0\.0\.1\/32|EGRESS_ALLOW_CIDRS=::1\/128/);
    }
    expect(target.paths).toEqual([]);
  });

  it("refuses a host name whose resolver answers loopback, naming the name and the address", async () => {
    const guard = outbound({ resolve: async () => ["127.0.0.1"] });
    const refusal = await refusalOf(guard.fetch(`http://internal.example:${target.port}/x`));
    expect(refusal.message).toMatch(
      /^Refused: internal\.example resolves to 127\.0\.0\.1, which is a loopback address/,
    );
    expect(target.paths).toEqual([]);
  });

  it("refuses a name when any of its addresses is refused", async () => {
    const guard = outbound({ allowCidrs: "127.0.0.1/32", resolve: async () => ["127.0.0.1", "::1"] });
    const refusal = await refusalOf(guard.fetch(`http://mixed.example:${target.port}/x`));
    expect(refusal.address).toBe("::1");
    expect(target.paths).toEqual([]);
  });

  it("connects to the address it checked: one resolution per connection (no DNS rebinding)", async () => {
    let lookups = 0;
    // A rebinding resolver: an allowed address the first time, another one afterwards.
    const guard = outbound({
      allowCidrs: "127.0.0.1/32",
      resolve: async () => (lookups++ === 0 ? ["127.0.0.1"] : ["127.0.0.2"]),
    });
    const response = await guard.fetch(`http://rebind.example:${target.port}/rebind`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("reached 127.0.0.1");
    expect(lookups).toBe(1);
    expect(target.paths).toContain("/rebind");
  });

  it("checks every redirect hop, also the ones fetch follows itself", async () => {
    const allowedHost = await listen("127.0.0.2", () => ({
      status: 302,
      location: `http://127.0.0.1:${target.port}/after-redirect`,
    }));
    try {
      const guard = outbound({ allowCidrs: "127.0.0.2/32" });
      const refusal = await refusalOf(guard.fetch(`${allowedHost.url}/start`, { redirect: "follow" }));
      expect(refusal.address).toBe("127.0.0.1");
      expect(allowedHost.paths).toEqual(["/start"]);
      expect(target.paths).not.toContain("/after-redirect");
    } finally {
      await allowedHost.close();
    }
  });

  it("resolveChecked gives the pinned address to callers that open connections themselves", async () => {
    const guard = outbound({ allowCidrs: "127.0.0.0/8", resolve: async () => ["127.0.0.3"] });
    await expect(guard.resolveChecked("svc.example")).resolves.toBe("127.0.0.3");
    await expect(guard.resolveChecked("0x7f.0.0.9")).resolves.toBe("127.0.0.9");
    await expect(outbound().resolveChecked("[::1]")).rejects.toBeInstanceOf(OutboundAddressRefused);
  });
});
