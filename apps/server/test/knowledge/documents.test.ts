import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectInvalid } from "../support/expect-error.js";
import { pdfOf } from "../support/pdf-file.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { addDocument, createBase, search } from "./helpers.js";

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe("knowledge documents become passages", () => {
  it("splits Markdown by headings with overlap; each passage keeps its heading path and exact offsets", async () => {
    const kb = await createBase(t, { name: "md", chunking: { maxTokens: 100, overlapTokens: 20 } });
    const long = Array.from({ length: 12 }, (_, i) => `Sentence ${i} about refunds and returns of goods.`).join(" ");
    const content = `# Guide\n\nIntro.\n\n## Refunds\n\n${long}\n\n## Shipping\n\nOrders ship in two days.`;
    const doc = await addDocument(t, kb.id, { title: "Guide", content, contentType: "markdown" });
    const res = await t.http
      .get(`${t.tenant.base}/knowledge-bases/${kb.id}/documents/${doc.id}/chunks?limit=100`)
      .set(t.tenant.auth);
    expect(res.status).toBe(200);
    const chunks = res.body.data as {
      position: number;
      headingPath: string[];
      startOffset: number;
      endOffset: number;
      text: string;
    }[];
    expect(chunks.map((c) => c.position)).toEqual(chunks.map((_, i) => i));
    expect(chunks[0]).toMatchObject({ headingPath: ["Guide"], text: "Intro." });
    const refunds = chunks.filter((c) => c.headingPath.join("/") === "Guide/Refunds");
    expect(refunds.length).toBeGreaterThan(1);
    expect(refunds.every((c) => c.text.length <= 400)).toBe(true);
    // Overlap: each passage of a section starts before the previous one ends.
    for (let i = 1; i < refunds.length; i++) expect(refunds[i]!.startOffset).toBeLessThan(refunds[i - 1]!.endOffset);
    expect(chunks.at(-1)).toMatchObject({ headingPath: ["Guide", "Shipping"], text: "Orders ship in two days." });
    for (const c of chunks) expect([...content].slice(c.startOffset, c.endOffset).join("")).toBe(c.text);

    // The same passages a page at a time: the cursor carries the last position sent.
    const paged: number[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: { data: { position: number }[]; nextCursor: string | null } } = await t.http
        .get(
          `${t.tenant.base}/knowledge-bases/${kb.id}/documents/${doc.id}/chunks?limit=2${cursor ? `&cursor=${cursor}` : ""}`,
        )
        .set(t.tenant.auth);
      expect(page.status).toBe(200);
      paged.push(...page.body.data.map((c) => c.position));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(paged).toEqual(chunks.map((c) => c.position));
    const forged = Buffer.from(JSON.stringify({ k: "1 OR 1", f: "x" })).toString("base64url");
    expectInvalid(
      await t.http
        .get(`${t.tenant.base}/knowledge-bases/${kb.id}/documents/${doc.id}/chunks?cursor=${forged}`)
        .set(t.tenant.auth),
      ["query.cursor"],
    );
  });

  it("stores HTML as the text it shows and PDF as the text of its pages", async () => {
    const kb = await createBase(t, { name: "formats" });
    const html = await addDocument(t, kb.id, {
      title: "Page",
      contentType: "html",
      content:
        "<html><head><script>steal()</script></head><body><h1>Returns</h1><p>Return within <b>14 days</b>.</p></body></html>",
    });
    const stored = await t.http
      .get(`${t.tenant.base}/knowledge-bases/${kb.id}/documents/${html.id}`)
      .set(t.tenant.auth);
    expect(stored.body).toMatchObject({ contentType: "html", content: "# Returns\n\nReturn within 14 days." });
    const pdf = await addDocument(t, kb.id, {
      title: "Manual",
      contentType: "pdf",
      content: pdfOf(["The warranty lasts two years.", "Batteries are replaced for free."]),
    });
    const manual = await t.http.get(`${t.tenant.base}/knowledge-bases/${kb.id}/documents/${pdf.id}`).set(t.tenant.auth);
    expect(manual.body.content).toBe(
      "## Page 1\n\nThe warranty lasts two years.\n\n## Page 2\n\nBatteries are replaced for free.",
    );
    const hit = await search(t, kb.id, { query: "batteries", mode: "fulltext" });
    expect(hit.body.data.map((h) => [h.title, h.headingPath])).toEqual([["Manual", ["Page 2"]]]);
    expect((await search(t, kb.id, { query: "steal", mode: "fulltext" })).body.data).toEqual([]);
  });

  it("refuses unreadable PDFs, oversized text and bad chunking with field paths", async () => {
    const kb = await createBase(t, { name: "bad" });
    const docs = `${t.tenant.base}/knowledge-bases/${kb.id}/documents`;
    expectInvalid(
      await t.http
        .post(docs)
        .set(t.tenant.auth)
        .send({ title: "x", contentType: "pdf", content: Buffer.from("hello").toString("base64") }),
      ["body.content"],
    );
    expectInvalid(
      await t.http.post(docs).set(t.tenant.auth).send({ title: "x", contentType: "pdf", content: "not base64!" }),
      ["body.content"],
    );
    expectInvalid(
      await t.http
        .post(docs)
        .set(t.tenant.auth)
        .send({ title: "x", content: "é".repeat(600_000) }),
      ["body.content"],
    );
    expectInvalid(
      await t.http
        .post(`${t.tenant.base}/knowledge-bases`)
        .set(t.tenant.auth)
        .send({ name: "c", chunking: { maxTokens: 100, overlapTokens: 60 } }),
      ["body.chunking.overlapTokens"],
    );
    expectInvalid(
      await t.http
        .post(`${t.tenant.base}/knowledge-bases/${kb.id}/search`)
        .set(t.tenant.auth)
        .send({ query: "x", mode: "vector" }),
      ["body.mode"],
    );
  });
});
