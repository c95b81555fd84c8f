import { expect } from "vitest";
import type { Tenant } from "../support/factories.js";
import type { TestApp } from "../support/test-app.js";

export async function createBase(t: TestApp, body: Record<string, unknown>, tenant: Tenant = t.tenant) {
  const res = await t.http.post(`${tenant.base}/knowledge-bases`).set(tenant.auth).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string };
}

export async function addDocument(t: TestApp, kbId: string, body: Record<string, unknown>, tenant: Tenant = t.tenant) {
  const res = await t.http.post(`${tenant.base}/knowledge-bases/${kbId}/documents`).set(tenant.auth).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; chunkCount: number; status: string };
}

export async function search(
  t: TestApp,
  kbId: string,
  body: Record<string, unknown>,
  tenant: Tenant = t.tenant,
): Promise<{
  status: number;
  headers: Record<string, string>;
  body: {
    data: {
      chunkId: string;
      documentId: string;
      title: string;
      headingPath: string[];
      text: string;
      score: number;
      foundBy: Record<string, unknown>;
      metadata: Record<string, string>;
    }[];
    mode: string;
    retrievers: {
      fulltext: boolean;
      semantic: { model: string | null; backend: string | null; error?: string } | null;
    };
    error?: { code: string; message: string };
  };
}> {
  const res = await t.http.post(`${tenant.base}/knowledge-bases/${kbId}/search`).set(tenant.auth).send(body);
  return res as never;
}

/** Waits (polling the API, as a client would) until the base's vectors are complete: status `ready`. */
export async function waitForBase(
  t: TestApp,
  kbId: string,
  until: (base: { embedding: { status: string }; documentCount: number }) => boolean = (b) =>
    b.embedding.status === "ready",
  tenant: Tenant = t.tenant,
) {
  for (let i = 0; i < 1200; i++) {
    const res = await t.http.get(`${tenant.base}/knowledge-bases/${kbId}`).set(tenant.auth);
    if (until(res.body)) return res.body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`knowledge base ${kbId} did not get there`);
}
