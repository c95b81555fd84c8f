import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAgent, message, newSession, postEvents } from "../sessions/helpers.js";
import { type LogEntry, waitForIdle } from "../sessions/loop-helpers.js";
import { expectError } from "../support/expect-error.js";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { sandboxDir } from "./sandbox-dir.js";

const MODEL = "openai-compatible/fake-model";
let t: TestApp;
let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await startTestApp({ role: "all", env: { OPENAI_COMPATIBLE_BASE_URL: fake.url, SANDBOX_DIR: sandboxDir() } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

const call = (name: string, input: Record<string, unknown>) => ({ toolCalls: [{ name, arguments: input }] });
const results = (log: LogEntry[]) => log.filter((e) => e.type === "agent.tool_result");
const resultText = (entry: LogEntry) => JSON.stringify(entry.content);

async function codingSession(text: string) {
  const agent = await createAgent(t, t.tenant, { model: MODEL, tools: ["bash", "file_write", "file_read"] });
  return newSession(t, t.tenant, { agent: agent.id, events: [message(text)] });
}

const files = (sessionId: string) => `${t.tenant.base}/sessions/${sessionId}/files`;

describe("code execution through the HTTP API", () => {
  it("an agent writes a script, runs it and returns its output and an artifact", async () => {
    fake.enqueue(
      call("file_write", {
        path: "report.py",
        content:
          "import os\nos.makedirs('outputs', exist_ok=True)\nopen('outputs/sum.txt', 'w').write(str(sum(range(101))))\nprint('done', sum(range(101)))\n",
      }),
      call("bash", { command: "python3 report.py" }),
      call("file_read", { path: "outputs/sum.txt" }),
      { text: "The sum is 5050." },
    );
    const session = await codingSession("Sum 1..100 with a script");
    const log = await waitForIdle(t, t.tenant, session.id, 1, 60_000);
    const done = results(log);
    expect(done.map((r) => r.isError)).toEqual([false, false, false]);
    expect(resultText(done[1])).toContain("done 5050");
    expect(resultText(done[2])).toContain("5050");

    // Saved before the turn's end was committed: artifacts and files are there once the session is idle.
    const artifacts = await t.http.get(`${t.tenant.base}/sessions/${session.id}/artifacts`).set(t.tenant.auth);
    expect(artifacts.body.data.map((a: { name: string }) => a.name)).toEqual(["outputs/sum.txt"]);
    const sum = await fetch(artifacts.body.data[0].url);
    expect(await sum.text()).toBe("5050");

    const list = await t.http.get(files(session.id)).set(t.tenant.auth);
    expect(list.status).toBe(200);
    expect(list.body.data.map((f: { path: string }) => f.path)).toEqual(["outputs/sum.txt", "report.py"]);
    expect(list.body.savedAt).not.toBeNull();
    const script = await t.http
      .get(`${files(session.id)}/report.py`)
      .set(t.tenant.auth)
      .buffer(true);
    expect(script.status).toBe(200);
    expect(script.headers["content-type"]).toBe("application/octet-stream");
    expect(script.headers["content-disposition"]).toContain('attachment; filename="report.py"');
    expect(script.body.toString()).toContain("print('done'");
    const nested = await t.http
      .get(`${files(session.id)}/outputs/sum.txt`)
      .set(t.tenant.auth)
      .buffer(true);
    expect(nested.body.toString()).toBe("5050");
  });

  it("uploads a file the agent then reads; a planted link is never followed on download", async () => {
    fake.enqueue(call("bash", { command: "ln -s /etc/shadow leak; ln -s /workspace/data/in.csv alias; echo ok" }), {
      text: "Linked.",
    });
    const session = await codingSession("Make links");
    await waitForIdle(t, t.tenant, session.id, 1, 60_000);
    for (const path of ["leak", "alias"]) {
      expectError(await t.http.get(`${files(session.id)}/${path}`).set(t.tenant.auth), 404, "session.file_not_found");
    }

    const upload = await t.http
      .post(files(session.id))
      .set(t.tenant.auth)
      .send({
        path: "/workspace/data/in.csv",
        content: Buffer.from("x,y\n1,2\n").toString("base64"),
        encoding: "base64",
      });
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    expect(upload.body).toEqual({ path: "data/in.csv", bytes: 8 });
    const through = await t.http.post(files(session.id)).set(t.tenant.auth).send({ path: "leak/x.txt", content: "no" });
    expectError(through, 400, "request.invalid");

    fake.enqueue(call("bash", { command: "cat data/in.csv; cat alias" }), { text: "Read it." });
    await postEvents(t, t.tenant, session.id, [message("Read the upload")]);
    const log = await waitForIdle(t, t.tenant, session.id, 2, 60_000);
    const last = results(log).at(-1);
    expect(resultText(last)).toContain("x,y\\n1,2\\nx,y\\n1,2");
  });

  it("refuses an upload while a turn runs, and answers 404 for another project's session", async () => {
    fake.enqueue({ ...call("bash", { command: "sleep 1; echo slept" }), delayMs: 1500 }, { text: "Slept." });
    const session = await codingSession("Sleep");
    const busy = await t.http.post(files(session.id)).set(t.tenant.auth).send({ path: "a.txt", content: "a" });
    expectError(busy, 409, "session.busy");
    await waitForIdle(t, t.tenant, session.id, 1, 60_000);

    const other = await t.newTenant();
    expectError(await t.http.get(files(session.id)).set(other.auth), 404, "project.not_found");
    expectError(
      await t.http.get(`${other.base}/sessions/${session.id}/files`).set(other.auth),
      404,
      "session.not_found",
    );
    expectError(
      await t.http.post(`${other.base}/sessions/${session.id}/files`).set(other.auth).send({ path: "a", content: "a" }),
      404,
      "session.not_found",
    );
  });

  it("refuses an upload past the environment's workspace quota and a bad path", async () => {
    const env = await t.http
      .post(`${t.tenant.base}/environments`)
      .set(t.tenant.auth)
      .send({ name: "tiny", resources: { workspaceMb: 1 } });
    expect(env.status, JSON.stringify(env.body)).toBe(201);
    expect(env.body).toMatchObject({
      networking: { type: "none" },
      packages: { npm: [], pip: [] },
      secrets: {},
      resources: { memoryMb: 512, cpus: 1, pids: 128, timeoutMs: 30000, workspaceMb: 1 },
    });
    const agent = await createAgent(t, t.tenant, { model: MODEL, tools: ["bash"] });
    const session = await newSession(t, t.tenant, { agent: agent.id, environmentId: env.body.id });
    const big = Buffer.alloc(1024 * 1024 + 1, 65).toString("base64");
    expectError(
      await t.http
        .post(files(session.id))
        .set(t.tenant.auth)
        .send({ path: "big.bin", content: big, encoding: "base64" }),
      409,
      "session.workspace_full",
    );
    expectError(
      await t.http.post(files(session.id)).set(t.tenant.auth).send({ path: "../escape", content: "x" }),
      400,
      "request.invalid",
    );
    const empty = await t.http.get(files(session.id)).set(t.tenant.auth);
    expect(empty.body).toEqual({ data: [], truncated: false, savedAt: null });
  });
});

describe("environment code-execution configuration", () => {
  it("validates secret references and replaces fields on PATCH", async () => {
    const missing = await t.http
      .post(`${t.tenant.base}/environments`)
      .set(t.tenant.auth)
      .send({ name: "bad", secrets: { TOKEN: { vaultId: "vault_missing", key: "X" } } });
    expectError(missing, 422, "environment.vault_not_found");
    const created = await t.http
      .post(`${t.tenant.base}/environments`)
      .set(t.tenant.auth)
      .send({
        name: "net",
        networking: { type: "limited", allowedHosts: ["registry.npmjs.org"] },
        packages: { npm: ["lodash@4.17.21"] },
      });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const patched = await t.http
      .patch(`${t.tenant.base}/environments/${created.body.id}`)
      .set(t.tenant.auth)
      .send({ networking: { type: "none" }, resources: { memoryMb: 1024 } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      networking: { type: "none" },
      packages: { npm: ["lodash@4.17.21"], pip: [] },
      resources: { memoryMb: 1024, timeoutMs: 30000 },
    });
    const invalid = await t.http
      .patch(`${t.tenant.base}/environments/${created.body.id}`)
      .set(t.tenant.auth)
      .send({ resources: { memoryMb: 1 }, networking: { type: "limited", allowedHosts: [] } });
    expectError(invalid, 400, "request.invalid");
  });
});
