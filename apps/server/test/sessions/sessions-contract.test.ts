import { contract } from "@agent-platform/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ZodTypeAny } from "zod";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createAgent, message } from "./helpers.js";

// Session routes are served without ts-rest's response re-validation (they are the hot path); this checks that what
// they send is exactly what the contract says, with no field the contract does not declare.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ role: "all" });
});
afterAll(async () => {
  await t?.close();
});

function conforms(route: { responses: Record<number, unknown> }, status: number, body: unknown) {
  const schema = route.responses[status] as ZodTypeAny;
  const result = schema.safeParse(body);
  expect(result.success, JSON.stringify(result.error?.issues)).toBe(true);
  // Zod drops keys a schema does not declare, so equality means the body has none.
  expect(result.data).toEqual(body);
}

describe("session responses match the contract", () => {
  it("create, get, list, ingest, events, rename, archive", async () => {
    const agent = await createAgent(t, t.tenant);
    const base = `${t.tenant.base}/sessions`;
    const created = await t.http
      .post(base)
      .set(t.tenant.auth)
      .send({ agent: agent.id, metadata: { team: "a" } });
    conforms(contract.sessions.create, 201, created.body);
    const id = created.body.id as string;

    const ack = await t.http
      .post(`${base}/${id}/events`)
      .set(t.tenant.auth)
      .send({ events: [message("hello", "k1")] });
    conforms(contract.sessions.ingestEvents, 202, ack.body);

    const deadline = Date.now() + 10_000;
    let page = await t.http.get(`${base}/${id}/events?afterSeq=0`).set(t.tenant.auth);
    while (page.body.data.length < 5 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      page = await t.http.get(`${base}/${id}/events?afterSeq=0`).set(t.tenant.auth);
    }
    conforms(contract.sessions.listEvents, 200, page.body);
    for (const entry of page.body.data)
      expect(Object.keys(entry)).toEqual(expect.arrayContaining(["seq", "id", "type", "createdAt"]));

    conforms(contract.sessions.get, 200, (await t.http.get(`${base}/${id}`).set(t.tenant.auth)).body);
    conforms(contract.sessions.list, 200, (await t.http.get(base).set(t.tenant.auth)).body);
    conforms(
      contract.sessions.update,
      200,
      (await t.http.patch(`${base}/${id}`).set(t.tenant.auth).send({ title: "T" })).body,
    );
    conforms(contract.sessions.archive, 200, (await t.http.post(`${base}/${id}/archive`).set(t.tenant.auth)).body);
  });
});
