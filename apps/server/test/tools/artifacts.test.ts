import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { artifactFilePath, signArtifactLink } from "../../src/artifacts/artifact-links.js";
import { resolveSessionTools } from "../../src/runtime/tools/resolve-session-tools.js";
import type { RuntimeTool, SessionRuntimeInfo } from "../../src/runtime/tools/types.js";
import { expectError } from "../support/expect-error.js";
import type { Tenant } from "../support/factories.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { agentConfig, runContext, seedSession, toolNamed } from "./support.js";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const agent = agentConfig({ tools: ["artifact_write"] });

async function artifactWrite(tenant: Tenant = t.tenant): Promise<{ tool: RuntimeTool; session: SessionRuntimeInfo }> {
  const session = await seedSession(t, tenant);
  const tools = await resolveSessionTools({ ctx: t.platform.ctx, session, agent });
  return { tool: toolNamed(tools, "artifact_write"), session };
}

/** The path and query of an absolute signed link, for the supertest agent. */
function local(url: string): string {
  const u = new URL(url);
  expect(u.origin).toBe(t.url);
  return `${u.pathname}${u.search}`;
}

describe("artifact_write", () => {
  it("writes versions 1, 2, … per name", async () => {
    const { tool, session } = await artifactWrite();
    expect(tool).toMatchObject({ origin: "builtin", readOnly: false });
    const run = runContext(t, session, agent);
    expect(await tool.execute!({ name: "report.md", content: "# Draft" }, run)).toEqual({
      isError: false,
      content: 'Saved artifact "report.md" version 1 (7 bytes, text/markdown).',
    });
    expect((await tool.execute!({ name: "report.md", content: "# Final ✓" }, run)).content).toBe(
      'Saved artifact "report.md" version 2 (11 bytes, text/markdown).',
    );
    expect(
      (await tool.execute!({ name: "data.bin", content: "{}", contentType: "application/json" }, run)).content,
    ).toBe('Saved artifact "data.bin" version 1 (2 bytes, application/json).');
  });

  it("gives concurrent writers distinct consecutive versions", async () => {
    const { tool, session } = await artifactWrite();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        tool.execute!({ name: "log.txt", content: `entry ${i}` }, runContext(t, session, agent)),
      ),
    );
    expect(results.every((r) => !r.isError)).toBe(true);
    const versions = results.map((r) => Number(/version (\d+)/.exec(r.content)![1])).sort((a, b) => a - b);
    expect(versions).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it("answers bad input with an error result", async () => {
    const { tool, session } = await artifactWrite();
    const run = runContext(t, session, agent);
    expect(await tool.execute!({ content: "x" }, run)).toEqual({
      isError: true,
      content: "Invalid input for artifact_write: name: Required",
    });
    expect((await tool.execute!({ name: " padded", content: "x" }, run)).content).toContain(
      "no leading or trailing spaces",
    );
    expect((await tool.execute!({ name: "a\nb", content: "x" }, run)).content).toContain("no control characters");
    expect((await tool.execute!({ name: "a", content: "x", contentType: "not a type" }, run)).content).toContain(
      "a MIME type",
    );
    expect((await tool.execute!({ name: "a", content: "x".repeat(1024 * 1024 + 1) }, run)).content).toContain(
      "at most 1048576 bytes",
    );
    expect((await tool.execute!("nope", run)).isError).toBe(true);
  });
});

describe("GET /v1/projects/:projectId/sessions/:id/artifacts", () => {
  it("groups versions by name with signed links served by the platform", async () => {
    const { tool, session } = await artifactWrite();
    const run = runContext(t, session, agent);
    await tool.execute!({ name: "report.md", content: "# v1" }, run);
    await tool.execute!({ name: "chart.svg", content: "<svg/>" }, run);
    await tool.execute!({ name: "report.md", content: "# v2 — done" }, run);

    const res = await t.http.get(`${t.tenant.base}/sessions/${session.id}/artifacts`).set(t.tenant.auth);
    expect(res.status).toBe(200);
    const link = expect.stringMatching(
      new RegExp(`^${t.url}/v1/files/artifacts/art_[0-9a-z]{26}\\?expires=\\d+&signature=`),
    );
    const time = expect.stringMatching(/Z$/);
    expect(res.body).toEqual({
      data: [
        {
          name: "chart.svg",
          latestVersion: 1,
          contentType: "image/svg+xml",
          bytes: 6,
          updatedAt: time,
          url: link,
          expiresAt: time,
          versions: [
            {
              id: expect.any(String),
              version: 1,
              contentType: "image/svg+xml",
              bytes: 6,
              createdAt: time,
              url: link,
              expiresAt: time,
            },
          ],
        },
        {
          name: "report.md",
          latestVersion: 2,
          contentType: "text/markdown",
          bytes: 13,
          updatedAt: time,
          url: link,
          expiresAt: time,
          versions: [
            expect.objectContaining({ version: 2, bytes: 13 }),
            expect.objectContaining({ version: 1, bytes: 4 }),
          ],
        },
      ],
    });
    const report = res.body.data[1];
    expect(report.url).toBe(report.versions[0].url);
    const expiresIn = Date.parse(report.expiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(3500_000);
    expect(expiresIn).toBeLessThanOrEqual(3600_000);

    // The link works without a key and serves the content sandboxed.
    const file = await t.http
      .get(local(report.url))
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on("data", (c: Buffer) => chunks.push(c));
        r.on("end", () => done(null, Buffer.concat(chunks).toString("utf8")));
      });
    expect(file.status).toBe(200);
    expect(file.body).toBe("# v2 — done");
    expect(file.headers["content-type"]).toBe("text/markdown; charset=utf-8");
    expect(file.headers["content-disposition"]).toBe(`inline; filename="report.md"; filename*=UTF-8''report.md`);
    expect(file.headers["x-content-type-options"]).toBe("nosniff");
    expect(file.headers["content-security-policy"]).toBe("default-src 'none'; sandbox");
    const older = await t.http.get(local(report.versions[1].url));
    expect(older.text).toBe("# v1");
  });

  it("returns an empty list for a session without artifacts", async () => {
    const session = await seedSession(t, t.tenant);
    const res = await t.http.get(`${t.tenant.base}/sessions/${session.id}/artifacts`).set(t.tenant.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [] });
  });

  it("refuses tampered and expired links (403 signature.invalid / signature.expired)", async () => {
    const { tool, session } = await artifactWrite();
    await tool.execute!({ name: "secret.txt", content: "s3cret" }, runContext(t, session, agent));
    const list = await t.http.get(`${t.tenant.base}/sessions/${session.id}/artifacts`).set(t.tenant.auth);
    const url = new URL(list.body.data[0].url);
    const id = url.pathname.split("/").pop()!;

    const signature = url.searchParams.get("signature")!;
    const flipped = `${signature.slice(0, -1)}${signature.endsWith("A") ? "B" : "A"}`;
    expectError(
      await t.http.get(`${url.pathname}?expires=${url.searchParams.get("expires")}&signature=${flipped}`),
      403,
      "signature.invalid",
    );
    expectError(
      await t.http.get(
        `${url.pathname}?expires=${Number(url.searchParams.get("expires")) + 60}&signature=${signature}`,
      ),
      403,
      "signature.invalid",
    );
    expectError(await t.http.get(url.pathname), 403, "signature.invalid");
    // A valid signature for another artifact's path does not open this one.
    const other = signArtifactLink(t.platform.ctx, "art_other");
    expectError(await t.http.get(`${url.pathname}${new URL(other.url).search}`), 403, "signature.invalid");

    const expired = t.platform.ctx.signer.signPath(artifactFilePath(id), 60, Date.now() - 3600_000);
    expectError(await t.http.get(expired.url), 403, "signature.expired");
  });

  it("answers 404 session.artifact_not_found for a signed link whose artifact is gone", async () => {
    const link = signArtifactLink(t.platform.ctx, "art_00000000000000000000000000");
    expectError(await t.http.get(local(link.url)), 404, "session.artifact_not_found");
  });

  it("answers 404 session.not_found for a missing session or another project's session", async () => {
    expectError(
      await t.http.get(`${t.tenant.base}/sessions/sess_missing/artifacts`).set(t.tenant.auth),
      404,
      "session.not_found",
    );
    const other = await t.newTenant();
    const { session } = await artifactWrite(other);
    expectError(
      await t.http.get(`${t.tenant.base}/sessions/${session.id}/artifacts`).set(t.tenant.auth),
      404,
      "session.not_found",
    );
    // Another project's path with this key: the project is not found.
    expectError(
      await t.http.get(`${other.base}/sessions/${session.id}/artifacts`).set(t.tenant.auth),
      404,
      "project.not_found",
    );
  });

  it("needs a key (401 auth.unauthorized)", async () => {
    expectError(await t.http.get(`${t.tenant.base}/sessions/sess_x/artifacts`), 401, "auth.unauthorized");
  });

  it("deleting the session deletes its artifacts", async () => {
    const { tool, session } = await artifactWrite();
    await tool.execute!({ name: "gone.txt", content: "x" }, runContext(t, session, agent));
    await t.platform.ctx.db.prisma.session.delete({ where: { id: session.id } });
    const { rows } = await t.platform.ctx.db.pool.query('SELECT 1 FROM artifacts WHERE "sessionId" = $1', [session.id]);
    expect(rows).toEqual([]);
  });
});
