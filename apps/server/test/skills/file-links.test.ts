import { SKILL_FILE_URL_TTL_SECONDS } from "@agent-platform/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { skillFileLinkPath } from "../../src/skills/file-links.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createSkill, expectEnvelope, skillMd } from "./helpers.js";

let t: TestApp;
let skillId: string;
beforeAll(async () => {
  t = await startTestApp();
  const skill = await createSkill(t, t.tenant, {
    files: [
      { path: "scripts/run.py", content: "print('héllo')\n" },
      { path: "docs/my notes #1?.md", content: "# Notes ✓\n" },
      { path: "data/config.json", content: '{"a":1}' },
      { path: "page.html", content: "<script>alert(1)</script>" },
    ],
  });
  skillId = skill.id;
  const v2 = await t.http
    .post(`/v1/skills/${skillId}`)
    .set(t.tenant.auth)
    .send({
      version: 1,
      files: [
        { path: "SKILL.md", content: skillMd("demo-skill", "v2") },
        { path: "scripts/run.py", content: "print('v2')\n" },
      ],
    });
  expect(v2.status).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

/** The path and query of an absolute URL, to fetch it through the test agent (no API key sent). */
function local(url: string): string {
  const u = new URL(url);
  expect(`${u.protocol}//${u.host}`).toBe(t.url);
  return u.pathname + u.search;
}

describe("signed file URLs", () => {
  it("signs a URL for a file of the current version; the URL serves the raw file without a key", async () => {
    const before = Date.now();
    const res = await t.http.get(`/v1/skills/${skillId}/files/scripts/run.py`).set(t.tenant.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1\/files\/skills\/skill_[0-9a-z]{26}\/versions\/2\//),
      expiresAt: expect.any(String),
      path: "scripts/run.py",
      version: 2,
    });
    const expiresAt = Date.parse(res.body.expiresAt);
    expect(expiresAt).toBeGreaterThan(before + (SKILL_FILE_URL_TTL_SECONDS - 5) * 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + SKILL_FILE_URL_TTL_SECONDS * 1000);

    // The file path is one segment, as the document's `{path}` says; its literal-slash form is the same link.
    expect(res.body.url).toContain("/versions/2/scripts%2Frun.py?expires=");
    expect((await t.http.get(local(res.body.url).replace("%2F", "/"))).status).toBe(200);
    const file = await t.http.get(local(res.body.url));
    expect(file.status).toBe(200);
    expect(file.headers["content-type"]).toBe("text/x-python; charset=utf-8");
    expect(file.headers["x-content-type-options"]).toBe("nosniff");
    expect(file.headers["content-security-policy"]).toContain("sandbox");
    expect(file.text).toBe("print('v2')\n");
    expect(Number(file.headers["content-length"])).toBe(Buffer.byteLength("print('v2')\n"));
  });

  it("signs a URL for an older version, which keeps serving that version's content", async () => {
    const res = await t.http.get(`/v1/skills/${skillId}/files/scripts/run.py?version=1`).set(t.tenant.auth);
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    const file = await t.http.get(local(res.body.url));
    expect(file.status).toBe(200);
    expect(file.text).toBe("print('héllo')\n");
    expect(Buffer.byteLength(file.text)).toBe(16);
  });

  it("accepts the file path percent-encoded as one segment, and encodes special characters in the link", async () => {
    const encoded = encodeURIComponent("docs/my notes #1?.md");
    const res = await t.http.get(`/v1/skills/${skillId}/files/${encoded}?version=1`).set(t.tenant.auth);
    expect(res.status).toBe(200);
    expect(res.body.path).toBe("docs/my notes #1?.md");
    expect(res.body.url).toContain("/versions/1/docs%2Fmy%20notes%20%231%3F.md?expires=");
    const file = await t.http.get(local(res.body.url));
    expect(file.status).toBe(200);
    expect(file.headers["content-type"]).toBe("text/markdown; charset=utf-8");
    expect(file.text).toBe("# Notes ✓\n");

    const json = await t.http.get(`/v1/skills/${skillId}/files/data%2Fconfig.json?version=1`).set(t.tenant.auth);
    const raw = await t.http.get(local(json.body.url));
    expect(raw.headers["content-type"]).toBe("application/json");
    expect(raw.text).toBe('{"a":1}');
    expect(raw.headers.etag).toMatch(/^"[0-9a-f]{64}"$/);
    const cached = await t.http.get(local(json.body.url)).set("If-None-Match", raw.headers.etag!);
    expect(cached.status).toBe(304);
  });

  it("serves user HTML sandboxed", async () => {
    const res = await t.http.get(`/v1/skills/${skillId}/files/page.html?version=1`).set(t.tenant.auth);
    const file = await t.http.get(local(res.body.url));
    expect(file.status).toBe(200);
    expect(file.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(file.headers["content-security-policy"]).toBe("default-src 'none'; sandbox");
  });

  it("answers a file not in the version with 404 skill.file_not_found", async () => {
    expectEnvelope(
      await t.http.get(`/v1/skills/${skillId}/files/page.html`).set(t.tenant.auth),
      404,
      "skill.file_not_found",
    );
    expectEnvelope(
      await t.http.get(`/v1/skills/${skillId}/files/nope/../SKILL.md`).set(t.tenant.auth),
      404,
      "skill.file_not_found",
    );
    expectEnvelope(
      await t.http.get(`/v1/skills/${skillId}/files/SKILL.md?version=3`).set(t.tenant.auth),
      404,
      "skill.version_not_found",
    );
  });

  it("refuses a tampered link with 403 signature.invalid", async () => {
    const res = await t.http.get(`/v1/skills/${skillId}/files/scripts/run.py`).set(t.tenant.auth);
    const url = new URL(res.body.url);
    const signature = url.searchParams.get("signature")!;
    const flipped = `${signature.slice(0, -1)}${signature.endsWith("A") ? "B" : "A"}`;

    const badSignature = new URL(url);
    badSignature.searchParams.set("signature", flipped);
    const otherPath = new URL(url);
    otherPath.pathname = otherPath.pathname.replace("scripts%2Frun.py", "SKILL.md");
    const otherVersion = new URL(url);
    otherVersion.pathname = otherVersion.pathname.replace("/versions/2/", "/versions/1/");
    const longer = new URL(url);
    longer.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3600));
    const missing = new URL(url);
    missing.search = "";

    for (const tampered of [badSignature, otherPath, otherVersion, longer, missing]) {
      const file = await t.http.get(tampered.pathname + tampered.search);
      expectEnvelope(file, 403, "signature.invalid");
    }
    expectEnvelope(await t.http.get(`/v1/files/skills/${skillId}/versions/2/%E0%A4%A`), 403, "signature.invalid");
  });

  it("refuses an expired link with 403 signature.expired", async () => {
    const path = skillFileLinkPath(skillId, 2, "scripts/run.py");
    const signed = t.platform.ctx.signer.signPath(path, 60, Date.now() - 3_600_000);
    expect(signed.expiresAt.getTime()).toBeLessThan(Date.now());
    expectEnvelope(await t.http.get(signed.url), 403, "signature.expired");
    const fresh = t.platform.ctx.signer.signPath(path, 60);
    expect((await t.http.get(fresh.url)).text).toBe("print('v2')\n");
  });

  it("still serves a link signed before paths were one segment (literal slashes), until it expires", async () => {
    const legacy = t.platform.ctx.signer.signPath(`/v1/files/skills/${skillId}/versions/2/scripts/run.py`, 60);
    expect((await t.http.get(legacy.url)).text).toBe("print('v2')\n");
  });

  it("is not reachable by another workspace, nor without a key", async () => {
    const other = await t.newTenant();
    expectEnvelope(
      await t.http.get(`/v1/skills/${skillId}/files/scripts/run.py`).set(other.auth),
      404,
      "skill.not_found",
    );
    expectEnvelope(await t.http.get(`/v1/skills/${skillId}/files/scripts/run.py`), 401, "auth.unauthorized");
  });
});
