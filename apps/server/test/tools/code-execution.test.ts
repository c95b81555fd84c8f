import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentConfig } from "@agent-platform/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/ids.js";
import { assembleToolset } from "../../src/runtime/loop/toolset.js";
import { CodeExecution, codeTooling, readSandboxSettings } from "../../src/runtime/sandbox/index.js";
import { resolveSessionTools } from "../../src/runtime/tools/resolve-session-tools.js";
import type { RuntimeTool, SessionRuntimeInfo } from "../../src/runtime/tools/types.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { startNpmRegistry } from "./npm-registry.js";
import { sandboxDir } from "./sandbox-dir.js";
import { agentConfig, type Loopback, runContext, seedSession, startLoopback, toolNamed } from "./support.js";

let t: TestApp;
let execution: CodeExecution;
let site: Loopback;

function newExecution(env: Record<string, string> = {}): CodeExecution {
  return new CodeExecution(t.platform.ctx, readSandboxSettings({ SANDBOX_DIR: sandboxDir(), ...env }));
}

beforeAll(async () => {
  t = await startTestApp();
  execution = newExecution();
  site = await startLoopback((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/plain" });
    res.end("hello from the allowed host");
  });
});

afterAll(async () => {
  await site?.close();
  await t?.close();
});

interface Sandbox {
  session: SessionRuntimeInfo;
  agent: AgentConfig;
  tools: Map<string, RuntimeTool>;
  call(tool: string, input: Record<string, unknown>): Promise<{ content: string; isError: boolean }>;
}

const ALL = ["bash", "file_read", "file_write", "file_edit", "file_list"] as const;

async function sandbox(
  options: { using?: CodeExecution; session?: SessionRuntimeInfo; environmentId?: string } = {},
): Promise<Sandbox> {
  const using = options.using ?? execution;
  const agent = agentConfig({ tools: [...ALL] });
  let session = options.session ?? (await seedSession(t, t.tenant));
  if (options.environmentId) {
    await t.platform.ctx.db.prisma.session.update({
      where: { id: session.id },
      data: { environmentId: options.environmentId },
    });
    session = { ...session, environmentId: options.environmentId };
  }
  const list = await resolveSessionTools({ ctx: t.platform.ctx, session, agent, codeExecution: codeTooling(using) });
  const tools = new Map(list.map((tool) => [tool.name, tool]));
  return {
    session,
    agent,
    tools,
    call: (tool, input) => toolNamed(list, tool).execute!(input, runContext(t, session, agent)),
  };
}

async function environment(body: Record<string, unknown>): Promise<string> {
  const res = await t.http
    .post(`${t.tenant.base}/environments`)
    .set(t.tenant.auth)
    .send({ name: `env-${newId("environment")}`, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

describe("code execution tools", () => {
  it("are offered when listed; read confinement keeps file_read and file_list", async () => {
    const s = await sandbox();
    expect([...s.tools.keys()]).toEqual([...ALL]);
    expect(s.tools.get("bash")).toMatchObject({ origin: "builtin", readOnly: false });
    const confined = assembleToolset(s.agent, [[...s.tools.values()]], { readonly: true });
    expect([...confined.tools.keys()]).toEqual(["file_read", "file_list"]);
  });

  it("write a script, run it, read and edit files; files persist across calls, processes do not", async () => {
    const s = await sandbox();
    const write = await s.call("file_write", { path: "src/hello.py", content: "print('hello', 6 * 7)\n" });
    expect(write).toEqual({ isError: false, content: "Wrote 22 bytes to src/hello.py." });
    const run = await s.call("bash", { command: "python3 src/hello.py && pwd && (sleep 60 &) && echo started" });
    expect(run.isError, run.content).toBe(false);
    expect(run.content).toContain("Exit code: 0");
    expect(run.content).toContain("hello 42\n/workspace\nstarted");
    const ps = await s.call("bash", { command: "ps -e -o comm= | sort | uniq" });
    expect(ps.content).not.toContain("sleep");
    const edit = await s.call("file_edit", { path: "src/hello.py", oldText: "6 * 7", newText: "6 * 9" });
    expect(edit).toEqual({ isError: false, content: "Replaced 1 occurrence(s) in src/hello.py." });
    const read = await s.call("file_read", { path: "src/hello.py" });
    expect(read.content).toBe("src/hello.py: lines 1–1 of 1, 22 bytes\nprint('hello', 6 * 9)\n");
    const list = await s.call("file_list", { pattern: "**/*.py" });
    expect(list.content).toBe("src/hello.py (22 bytes)");
    const missing = await s.call("file_edit", { path: "src/hello.py", oldText: "nope", newText: "x" });
    expect(missing).toMatchObject({ isError: true, content: "oldText was not found in src/hello.py" });
    const failed = await s.call("bash", { command: "echo out; echo err >&2; exit 3" });
    expect(failed).toMatchObject({ isError: true });
    expect(failed.content).toBe("Exit code: 3\n--- stdout ---\nout\n\n--- stderr ---\nerr\n");
  });

  it("refuses every escape: host files, the database port, host processes, writes outside /workspace", async () => {
    const s = await sandbox();
    const probe = await s.call("bash", {
      command: [
        "cat /etc/shadow && echo READ-SHADOW",
        `cat ${join(import.meta.dirname, "..", "..", "package.json")} && echo READ-PROJECT`,
        "ls /root && echo READ-ROOT",
        "(exec 3<>/dev/tcp/127.0.0.1/5432) && echo REACHED-POSTGRES",
        "ps -e -o comm= | grep -c . ",
        "touch /usr/evil && echo WROTE-USR",
        "touch /etc/evil && echo WROTE-ETC",
        "id -u",
        "true",
      ].join("; "),
    });
    expect(probe.content).not.toMatch(/READ-SHADOW|READ-PROJECT|READ-ROOT|REACHED-POSTGRES|WROTE-USR|WROTE-ETC/);
    // Only the sandbox's own processes are visible (bwrap's init, bash, ps, grep).
    const processes = Number(/--- stdout ---\n(\d+)\n/.exec(probe.content)?.[1]);
    expect(processes).toBeLessThan(8);
    expect(probe.content).toContain("65534");
  });

  it("stops a fork bomb, a memory hog, a CPU loop and a huge file, each with a readable tool error", async () => {
    const env = await environment({ resources: { memoryMb: 128, pids: 64, timeoutMs: 3000, workspaceMb: 8 } });
    const s = await sandbox({ environmentId: env });
    const bomb = await s.call("bash", { command: "bomb() { bomb | bomb & }; bomb; sleep 1; echo survived" });
    expect(bomb).toMatchObject({ isError: true });
    expect(bomb.content).toMatch(/process limit \(64 processes and threads\)|Timed out/);
    const hog = await s.call("bash", { command: "python3 -c 'a = bytearray(400 * 1024 * 1024); print(len(a))'" });
    expect(hog).toMatchObject({ isError: true });
    expect(hog.content).toMatch(/memory limit \(128 MiB\)|MemoryError/);
    const loop = await s.call("bash", { command: "while :; do :; done" });
    expect(loop).toMatchObject({ isError: true });
    expect(loop.content).toContain("Timed out after 3000 ms: every process of the call was killed.");
    const huge = await s.call("bash", { command: "head -c 20000000 /dev/zero > big.bin; ls -l big.bin" });
    expect(huge).toMatchObject({ isError: true });
    expect(huge.content).toMatch(/size limit \(8 MiB\)|quota/);
    const after = await s.call("bash", { command: "rm -f big.bin; echo fine" });
    expect(after.content).toContain("fine");
  });

  it("keeps sessions apart: one session's files are not visible to another", async () => {
    const a = await sandbox();
    const b = await sandbox();
    await a.call("file_write", { path: "secret.txt", content: "only for A" });
    const look = await b.call("bash", { command: "ls -A /workspace; find / -name secret.txt 2>/dev/null; echo done" });
    expect(look.content).not.toContain("secret.txt");
    const read = await b.call("file_read", { path: "secret.txt" });
    expect(read).toMatchObject({ isError: true, content: "No such file: secret.txt" });
  });

  it("gives environment variables and vault secrets, and never shows a secret's value", async () => {
    const vault = await t.http
      .post(`${t.tenant.base.replace(/\/projects\/.*/, "")}/vaults`)
      .set(t.tenant.auth)
      .send({ name: `v-${newId("vault")}`, secrets: { API_TOKEN: "s3cr3t-value-123" } });
    expect(vault.status, JSON.stringify(vault.body)).toBe(201);
    const env = await environment({
      variables: { GREETING: "hi" },
      secrets: { TOKEN: { vaultId: vault.body.id, key: "API_TOKEN" } },
    });
    const s = await sandbox({ environmentId: env });
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash expansion, not a template
    const out = await s.call("bash", { command: 'echo "$GREETING ${#TOKEN} $TOKEN"' });
    expect(out.content).toContain("hi 16 [secret TOKEN]");
    expect(out.content).not.toContain("s3cr3t-value-123");
  });

  it("limited networking reaches an allowed host through the proxy and nothing else; none has no network", async () => {
    const limited = await environment({
      networking: { type: "limited", allowedHosts: [`127.0.0.1:${site.port}`] },
    });
    const s = await sandbox({ environmentId: limited });
    const allowed = await s.call("bash", { command: `curl -sS --max-time 5 ${site.url}/x` });
    expect(allowed.isError, allowed.content).toBe(false);
    expect(allowed.content).toContain("hello from the allowed host");
    const denied = await s.call("bash", {
      command: `curl -sS --max-time 5 -o /dev/null -w '%{http_code}' http://localhost:${site.port}/y`,
    });
    expect(denied.content).toContain("403");
    const direct = await s.call("bash", { command: `curl -sS --noproxy '*' --max-time 3 ${site.url}/z` });
    expect(direct).toMatchObject({ isError: true });
    expect(site.requests.map((r) => r.url)).toEqual(["/x"]);

    const none = await sandbox();
    const offline = await none.call("bash", { command: `curl -sS --max-time 3 ${site.url}/w` });
    expect(offline).toMatchObject({ isError: true });
    expect(site.requests.map((r) => r.url)).toEqual(["/x"]);
  });

  it("saves the workspace at the end of a turn; another worker restores it", async () => {
    const first = await sandbox();
    await first.call("file_write", { path: "notes/todo.md", content: "- ship it\n" });
    await first.call("bash", {
      command: "mkdir -p outputs && echo 'a,b' > outputs/table.csv && ln -s /etc/passwd outputs/link",
    });
    await execution.endTurn(first.session.id);

    const artifacts = await t.http.get(`${t.tenant.base}/sessions/${first.session.id}/artifacts`).set(t.tenant.auth);
    expect(artifacts.body.data.map((a: { name: string }) => a.name)).toEqual(["outputs/table.csv"]);

    const other = newExecution();
    const second = await sandbox({ using: other, session: first.session });
    const read = await second.call("bash", { command: "cat notes/todo.md; readlink outputs/link" });
    expect(read.content).toContain("- ship it\n/etc/passwd");
  });

  it("installs an environment's packages once into a read-only layer that every session reuses", async () => {
    const registry = await startNpmRegistry();
    try {
      const layered = newExecution({ SANDBOX_NPM_REGISTRY: `${registry.site.url}/` });
      const env = await environment({ packages: { npm: ["tiny-pkg@1.0.0"] } });
      const script = "node -e \"console.log(require('tiny-pkg').hello)\"; touch /opt/packages/x && echo WROTE-LAYER";
      for (let i = 0; i < 2; i++) {
        const s = await sandbox({ using: layered, environmentId: env });
        const out = await s.call("bash", { command: script });
        expect(out.content, out.content).toContain("hello from tiny-pkg");
        expect(out.content).not.toContain("WROTE-LAYER");
      }
      expect(layered.layers.builds).toHaveLength(1);
      expect(registry.site.requests.filter((r) => r.url.endsWith(".tgz"))).toHaveLength(1);

      const broken = await environment({ packages: { npm: ["missing-pkg@1.0.0"] } });
      const s = await sandbox({ using: layered, environmentId: broken });
      const failed = await s.call("bash", { command: "echo never" });
      expect(failed).toMatchObject({ isError: true });
      expect(failed.content).toContain("Installing the environment's packages failed");
    } finally {
      await registry.site.close();
    }
  });

  it("sweeps local copies of deleted sessions; the saved workspace is restored when needed", async () => {
    const own = newExecution();
    const s = await sandbox({ using: own });
    await s.call("file_write", { path: "keep.txt", content: "kept" });
    await own.endTurn(s.session.id);
    const gone = await sandbox({ using: own });
    await gone.call("file_write", { path: "x.txt", content: "x" });
    await own.endTurn(gone.session.id);
    await t.platform.ctx.db.pool.query('DELETE FROM sessions WHERE "id" = $1', [gone.session.id]);
    expect(await own.sweep()).toBe(1);
    expect(await own.sweep(0)).toBe(1);
    const again = await sandbox({ using: own, session: s.session });
    expect((await again.call("file_read", { path: "keep.txt" })).content).toContain("kept");
  });

  it("fails closed when bubblewrap cannot create namespaces, naming the cause", async () => {
    const fake = join(sandboxDir(), "bwrap");
    writeFileSync(
      fake,
      "#!/bin/sh\necho 'bwrap: Creating new namespace failed: No space left on device' >&2\nexit 1\n",
    );
    chmodSync(fake, 0o755);
    const broken = newExecution({ SANDBOX_BWRAP_PATH: fake });
    const s = await sandbox({ using: broken });
    for (const tool of ["bash", "file_read"]) {
      const result = await s.call(tool, tool === "bash" ? { command: "echo hi" } : { path: "x" });
      expect(result).toMatchObject({ isError: true });
      expect(result.content).toContain("cannot create user namespaces");
      expect(result.content).toContain("docs/environments.md");
    }
  });
});
