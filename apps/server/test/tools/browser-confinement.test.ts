import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEgressProxy } from "../../src/lib/outbound/index.js";
import { prepareConfinedLaunch } from "../../src/runtime/browser/confined-launch.js";
import { type BrowserTooling, createBrowserTooling, readBrowserSettings } from "../../src/runtime/browser/index.js";
import { resolveSessionTools } from "../../src/runtime/tools/resolve-session-tools.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { startTestSite, type TestSite } from "./browser-site.js";
import { agentConfig, runContext, seedSession, toolNamed } from "./support.js";

/**
 * The browser's boundary (issue #36): Chromium gets none of the server's environment, runs as an unprivileged user with
 * its own sandbox on, cannot see the server's files, processes or database, and is stopped by its memory limit alone.
 */
const SECRET = `secret-${randomUUID()}`;
let t: TestApp;
let web: TestSite;
let tooling: BrowserTooling;

beforeAll(async () => {
  // A variable only the server has: no browser process may hold it (nor any other of the server's variables).
  process.env.AGENT_PLATFORM_TEST_SECRET = SECRET;
  t = await startTestApp();
  web = await startTestSite();
  const base = t.platform.ctx;
  tooling = createBrowserTooling({
    ...base,
    config: { ...base.config, env: { ...base.config.env, BROWSER_MEMORY_MB: "256" } },
  });
});

afterAll(async () => {
  await tooling?.contexts.stop();
  await web?.close();
  await t?.close();
  delete process.env.AGENT_PLATFORM_TEST_SECRET;
});

async function browse() {
  const agent = agentConfig({ tools: ["browser"] });
  const session = await seedSession(t, t.tenant);
  const tool = toolNamed(
    await resolveSessionTools({ ctx: t.platform.ctx, session, agent, browser: tooling }),
    "browser",
  );
  return { session, call: (input: Record<string, unknown>) => tool.execute!(input, runContext(t, session, agent)) };
}

interface Proc {
  pid: number;
  ppid: number;
  cmdline: string;
  environ: string[];
  status: string;
}

/** This process's descendants (the browsers it started, through their boundary), read from /proc. */
function descendants(): Proc[] {
  const all: Proc[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      all.push({
        pid: Number(name),
        ppid,
        cmdline: readFileSync(`/proc/${name}/cmdline`, "utf8").replaceAll("\0", " "),
        environ: readFileSync(`/proc/${name}/environ`, "utf8").split("\0").filter(Boolean),
        status: readFileSync(`/proc/${name}/status`, "utf8"),
      });
    } catch {
      // gone meanwhile
    }
  }
  const mine = new Set([process.pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of all) {
      if (!mine.has(p.pid) && mine.has(p.ppid)) {
        mine.add(p.pid);
        grew = true;
      }
    }
  }
  return all.filter((p) => p.pid !== process.pid && mine.has(p.pid));
}

const field = (status: string, name: string) => new RegExp(`^${name}:\\s*(.*)$`, "m").exec(status)?.[1] ?? "";

describe("the browser's boundary", () => {
  it("gives Chromium none of the server's environment, an unprivileged user and its own sandbox", async () => {
    const b = await browse();
    const opened = await b.call({ action: "navigate", url: `${web.site.url}/` });
    expect(opened.isError, opened.content).toBe(false);

    const chromium = descendants().filter((p) => /chrom/.test(p.cmdline));
    expect(chromium.length).toBeGreaterThan(2);
    // What the boundary sets, and what the shells inside it maintain themselves (with their own values).
    const own = new Set(["PATH", "HOME", "TMPDIR", "LANG", "PWD", "OLDPWD", "SHLVL", "_"]);
    const serverNames = Object.keys(process.env).filter((name) => !own.has(name));
    const serverEntries = new Set(Object.entries(process.env).map(([name, value]) => `${name}=${value}`));
    expect(serverNames).toContain("AGENT_PLATFORM_TEST_SECRET");
    for (const p of chromium) {
      const names = p.environ.map((entry) => entry.slice(0, entry.indexOf("=")));
      expect(
        names.filter((n) => serverNames.includes(n)),
        p.cmdline,
      ).toEqual([]);
      expect(p.environ.filter((entry) => serverEntries.has(entry) && !entry.startsWith("LANG="))).toEqual([]);
      expect(p.environ.join("\n")).not.toContain(SECRET);
      // Never root, not even as a saved or effective id.
      expect(field(p.status, "Uid").split(/\s+/)).not.toContain("0");
    }
    const renderers = chromium.filter((p) => p.cmdline.includes("--type=renderer"));
    expect(renderers.length).toBeGreaterThan(0);
    // Chromium's own sandbox: renderers under a seccomp-bpf filter, in namespaces of their own.
    for (const r of renderers) expect(field(r.status, "Seccomp")).toBe("2");
    expect(chromium.some((p) => p.cmdline.includes("--no-sandbox"))).toBe(false);
    await tooling.contexts.close(b.session.id);
  });

  it("keeps the server's files, processes and database out of reach from inside the boundary", async () => {
    const settings = readBrowserSettings({});
    // A process started exactly as Chromium is (same launch script, user, namespaces and mounts).
    const launch = await prepareConfinedLaunch(settings.boundary, "/usr/bin/bash", randomUUID());
    const proxy = await startEgressProxy({
      outbound: t.platform.ctx.outbound,
      judge: () => null,
      listen: { path: launch.proxySocket, uid: settings.boundary.uid, gid: settings.boundary.gid },
    });
    const dataDir = t.platform.ctx.config.dataDir;
    const db = new URL(t.platform.ctx.config.env.DATABASE_URL ?? "postgres://127.0.0.1:5432/x");
    const site = new URL(web.site.url);
    const check = (name: string, command: string) =>
      `if ${command}; then echo "${name}=reachable"; else echo "${name}=unreachable"; fi`;
    const script = [
      check("dataDir", `ls ${JSON.stringify(dataDir)} >/dev/null 2>&1`),
      check(
        "serverProc",
        `test -e /proc/${process.pid}/environ && grep -q ${SECRET} /proc/${process.pid}/environ 2>/dev/null`,
      ),
      check("secretInAnyProc", `cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n' | grep -q ${SECRET}`),
      check("dbPort", `(exec 3<>/dev/tcp/${db.hostname || "127.0.0.1"}/${db.port || 5432}) 2>/dev/null`),
      check("dbSocket", "ls /var/run/postgresql /run/postgresql 2>/dev/null | grep -q PGSQL"),
      check("hostLoopback", `(exec 3<>/dev/tcp/${site.hostname}/${site.port}) 2>/dev/null`),
      check("proxy", "(exec 3<>/dev/tcp/127.0.0.1/3128) 2>/dev/null"),
      check("writableUsr", "touch /usr/x 2>/dev/null"),
      "echo uid=$(id -u)",
      "echo pids=$(ls -d /proc/[0-9]* | wc -l)",
    ].join("\n");
    try {
      const { stdout } = await promisify(execFile)(launch.executablePath, ["-c", script], { env: {} });
      const seen = Object.fromEntries(
        stdout
          .trim()
          .split("\n")
          .map((line) => line.split("=") as [string, string]),
      );
      expect(seen).toMatchObject({
        dataDir: "unreachable",
        serverProc: "unreachable",
        secretInAnyProc: "unreachable",
        dbPort: "unreachable",
        dbSocket: "unreachable",
        hostLoopback: "unreachable",
        writableUsr: "unreachable",
        proxy: "reachable",
        uid: String(settings.boundary.uid),
      });
      // Its own pid namespace: the bridge, the shell and a few helpers, not the host's processes.
      expect(Number(seen.pids)).toBeLessThan(10);
    } finally {
      await proxy.close();
      await launch.dispose();
    }
  });

  it("bounds the processes of a browser at BROWSER_MAX_PROCESSES (its cgroup's pids limit, or its user's)", async () => {
    expect(() => readBrowserSettings({ BROWSER_MAX_PROCESSES: "8" })).toThrow(
      /BROWSER_MAX_PROCESSES must be an integer/,
    );
    const settings = readBrowserSettings({ BROWSER_MAX_PROCESSES: "40" });
    const id = randomUUID();
    const launch = await prepareConfinedLaunch(settings.boundary, "/usr/bin/bash", id);
    const proxy = await startEgressProxy({
      outbound: t.platform.ctx.outbound,
      judge: () => null,
      listen: { path: launch.proxySocket, uid: settings.boundary.uid, gid: settings.boundary.gid },
    });
    try {
      const { stdout } = await promisify(execFile)(launch.executablePath, ["-c", "echo $(ulimit -u)"], { env: {} });
      // Where cgroups are delegated the browser's own cgroup (joined before bubblewrap starts) has the limit; without
      // them its user's process limit is set to it.
      const cgroupLimits = [
        `/sys/fs/cgroup/pids/agent-platform/browser-${id}/pids.max`,
        `/sys/fs/cgroup/agent-platform/browser-${id}/pids.max`,
      ].flatMap((file) => (existsSync(file) ? [readFileSync(file, "utf8").trim()] : []));
      if (cgroupLimits.length > 0) expect(cgroupLimits).toEqual(["40"]);
      else expect(stdout.trim()).toBe("40");
    } finally {
      await proxy.close();
      await launch.dispose();
    }
  });

  it("stops a page that allocates without bound at the memory limit; the worker and other sessions carry on", async () => {
    const hog = await browse();
    const other = await browse();
    expect((await other.call({ action: "navigate", url: `${web.site.url}/about` })).isError).toBe(false);

    const stopped = await hog.call({ action: "navigate", url: `${web.site.url}/hog` });
    expect(stopped.isError, stopped.content).toBe(true);
    expect(stopped.content).toMatch(/memory limit \(BROWSER_MEMORY_MB=256\)/);

    const read = await other.call({ action: "read" });
    expect(read.isError, read.content).toBe(false);
    expect(read.content).toContain("We make widgets since 1999.");
    const again = await hog.call({ action: "navigate", url: `${web.site.url}/` });
    expect(again.isError, again.content).toBe(false);
    expect(again.content).toContain("Title: Home");
    await tooling.contexts.close(hog.session.id);
    await tooling.contexts.close(other.session.id);
  });
});

describe("where the browser cannot be confined", () => {
  function toolingWith(env: Record<string, string>): BrowserTooling {
    const base = t.platform.ctx;
    return createBrowserTooling({ ...base, config: { ...base.config, env: { ...base.config.env, ...env } } });
  }

  async function navigateWith(using: BrowserTooling) {
    const agent = agentConfig({ tools: ["browser"] });
    const session = await seedSession(t, t.tenant);
    const tool = toolNamed(
      await resolveSessionTools({ ctx: t.platform.ctx, session, agent, browser: using }),
      "browser",
    );
    const result = await tool.execute!({ action: "navigate", url: `${web.site.url}/` }, runContext(t, session, agent));
    return { result, session };
  }

  it("refuses to browse, naming the override, unless the operator set BROWSER_CONFINEMENT=none", async () => {
    const refused = toolingWith({ BROWSER_BWRAP_PATH: "/nonexistent/bwrap" });
    try {
      const { result } = await navigateWith(refused);
      expect(result.isError).toBe(true);
      expect(result.content).toContain("bubblewrap");
      expect(result.content).toContain("BROWSER_CONFINEMENT=none");
    } finally {
      await refused.contexts.stop();
    }

    const unconfined = toolingWith({ BROWSER_BWRAP_PATH: "/nonexistent/bwrap", BROWSER_CONFINEMENT: "none" });
    try {
      const { result, session } = await navigateWith(unconfined);
      expect(result.isError, result.content).toBe(false);
      expect(result.content).toContain("Title: Home");
      // Unconfined, yet still without the server's environment.
      const chromium = descendants().filter((p) => /chrom/.test(p.cmdline));
      expect(chromium.length).toBeGreaterThan(0);
      for (const p of chromium) expect(p.environ.join("\n")).not.toContain(SECRET);
      await unconfined.contexts.close(session.id);
    } finally {
      await unconfined.contexts.stop();
    }
  });
});
