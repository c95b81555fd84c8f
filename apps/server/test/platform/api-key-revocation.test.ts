import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { type RunningPlatform, startPlatform } from "../../src/platform-process.js";
import { startTestApp, type TestApp } from "../support/test-app.js";

let t: TestApp;
let replica: RunningPlatform;
beforeAll(async () => {
  t = await startTestApp();
  replica = await startPlatform(
    loadConfig({
      DATABASE_URL: t.platform.ctx.config.databaseUrl,
      DATA_DIR: mkdtempSync(join(tmpdir(), "ap-replica-")),
      SECRETS_KEY: randomBytes(32).toString("base64"),
      PORT: "0",
      ROLE: "api",
      LOG_LEVEL: "silent",
    }),
  );
});
afterAll(async () => {
  await replica?.close();
  await t?.close();
});

async function waitFor(check: () => Promise<boolean>, ms = 5000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return false;
}

describe("API key revocation across replicas", () => {
  it("a key revoked on one API process stops working on another that had it cached", async () => {
    const created = await t.http
      .post("/v1/api-keys")
      .set(t.tenant.auth)
      .send({ name: "shared", projectId: t.tenant.projectId });
    const key = created.body.key as string;
    const other = supertest(replica.url!);
    // Warm the replica's cache.
    expect((await other.get("/v1/platform/context").set("Authorization", `Bearer ${key}`)).status).toBe(200);

    await t.http.post(`/v1/api-keys/${created.body.id}/revoke`).set(t.tenant.auth).expect(200);
    const rejected = await waitFor(
      async () => (await other.get("/v1/platform/context").set("Authorization", `Bearer ${key}`)).status === 401,
    );
    expect(rejected).toBe(true);
  });
});
