import { afterAll, describe, expect, it } from "vitest";
import { FAKE_EMBEDDING_KEY, startFakeEmbeddings } from "../support/fake-embeddings.js";
import { pdfOf } from "../support/pdf-file.js";
import { HANDBOOK } from "../support/retrieval-corpus.js";
import {
  axeViolations,
  hasChromium,
  horizontalOverflow,
  openConsole,
  settled,
  signIn,
  unexpectedProblems,
} from "./console-browser.js";
import { consoleSuite } from "./console-suite.js";

// OpenAI's embeddings API, spoken by the loopback fake (its vectors know that "money back" means "refund").
const embeddings = await startFakeEmbeddings();
afterAll(() => embeddings.close());
const s = consoleSuite({ env: { OPENAI_API_KEY: FAKE_EMBEDDING_KEY, OPENAI_BASE_URL: embeddings.url } });

const billing = HANDBOOK[0]!;
const shipping = HANDBOOK[1]!;

describe.skipIf(!hasChromium)("knowledge bases and memory stores in the console", () => {
  it("creates a base with a catalogue embedding model, adds a document that gets ready, and finds a paraphrase by meaning", async () => {
    const { page, problems, foreign, screenshot } = await openConsole(s.browser, s.t.url);
    await signIn(page, s.t.url, s.t.tenant.key, "/console/sessions");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Knowledge" }).click();
    await page.getByRole("heading", { name: "No knowledge base yet" }).waitFor();
    const form = page.getByRole("form", { name: "New knowledge base" });
    await form.getByLabel("Name").fill("Support handbook");
    // The embedding models come from GET /v1/embedding-models: the offline default first, OpenAI's (configured here).
    const model = form.getByLabel("Embedding model", { exact: true });
    await expect
      .poll(() => model.locator("option").allTextContents())
      .toEqual([
        "builtin/hash-ngrams (default)",
        "openai/text-embedding-3-large",
        "openai/text-embedding-3-small",
        "openai/text-embedding-ada-002",
        "Another model (openai-compatible/…)…",
      ]);
    await model.selectOption("openai/text-embedding-3-small");
    await form.getByLabel("Dimensions (shorter vectors)").fill("256");
    await screenshot("knowledge-new");
    await form.getByRole("button", { name: "Create knowledge base" }).click();
    await page.getByRole("heading", { name: "Support handbook", exact: true }).waitFor({ timeout: 10_000 });
    const kbId = page.url().split("/").at(-1)!;
    expect((await s.platform.knowledgeBases.get(kbId)).embeddingModel).toEqual({
      id: "openai/text-embedding-3-small",
      dimensions: 256,
    });

    for (const doc of [billing, shipping]) {
      const add = page.getByRole("form", { name: "Add a document" });
      await add.getByLabel("Title").fill(doc.title);
      await add.getByLabel("Type").selectOption("markdown");
      await add.getByLabel("Content").fill(doc.content);
      await add.getByRole("button", { name: "Add metadata entry" }).click();
      await add.getByLabel("Metadata key 1").fill("team");
      await add.getByLabel("Metadata value 1").fill(doc.metadata!.team!);
      await add.getByRole("button", { name: "Add document" }).click();
      await add
        .getByRole("status")
        .filter({ hasText: `Added “${doc.title}”` })
        .waitFor({ timeout: 10_000 });
    }
    // Each document's status moves to ready as its passages are embedded in the background; the page follows it.
    const documents = page.getByRole("table", { name: "Documents" });
    await expect
      .poll(() => documents.locator("td[data-label=Status] .badge").allTextContents(), { timeout: 30_000 })
      .toEqual(["ready", "ready"]);
    expect(await documents.textContent()).toMatch(/(\d+) of \1 passages embedded/);

    // A question in other words than the document's: full text (every word required) finds nothing…
    const search = page.getByRole("search", { name: "Search Support handbook" });
    await search.getByLabel("Search", { exact: true }).fill("can I get my money back");
    await search.getByLabel("Mode").selectOption("fulltext");
    await search.getByRole("button", { name: "Search" }).click();
    const results = page.getByRole("region", { name: "Search results" });
    await results.getByText("No passage matches.").waitFor({ timeout: 10_000 });
    // …the hybrid search finds the refund passage by its meaning, and says which retriever found it.
    await search.getByLabel("Mode").selectOption("hybrid");
    await search.getByLabel("Hits").fill("3");
    await search.getByRole("button", { name: "Search" }).click();
    const first = results.getByRole("listitem").first();
    await expect.poll(() => first.getAttribute("aria-label"), { timeout: 10_000 }).toBe("Hit 1: Billing handbook");
    expect(await first.locator("blockquote").textContent()).toContain("Refunds are issued within 30 days");
    expect(await first.textContent()).toContain("› Billing › Refund policy");
    expect(await first.textContent()).toMatch(/passage \d+ · characters \d+–\d+ · score /);
    expect(await first.locator(".badge.retriever-semantic").textContent()).toMatch(/^meaning #1 /);
    expect(await first.locator(".badge.retriever-fulltext").count()).toBe(0);
    expect(await results.textContent()).toContain("searched by full text and meaning (openai/text-embedding-3-small");
    // At most the 3 hits asked for: passages that share nothing with the question (zero similarity) are not hits.
    const hits = await results.getByRole("listitem").count();
    expect(hits).toBeGreaterThanOrEqual(1);
    expect(hits).toBeLessThanOrEqual(3);
    await screenshot("knowledge-search");
    // Filters: only the logistics team's document.
    await search.getByLabel("Metadata (key=value)").fill("team=logistics");
    await search.getByLabel("Search", { exact: true }).fill("when will my parcel arrive");
    await search.getByRole("button", { name: "Search" }).click();
    await expect
      .poll(() => results.getByRole("listitem").first().getAttribute("aria-label"), { timeout: 10_000 })
      .toBe("Hit 1: Shipping and returns");
    const titles = await results.locator(".hit-head a").allTextContents();
    expect(new Set(titles)).toEqual(new Set(["Shipping and returns"]));
    await screenshot("knowledge-base");
    expect(await axeViolations(page)).toEqual([]);

    // A hit opens its document: its passages with their sections and offsets, the hit's passage marked.
    const section = (await results.getByRole("listitem").first().locator(".hit-head .muted").textContent())!;
    await results.getByRole("link", { name: "Shipping and returns" }).first().click();
    await page.getByRole("heading", { name: "Shipping and returns", exact: true }).waitFor();
    const passages = page.getByRole("table", { name: "Passages" });
    await expect
      .poll(() => passages.locator("td[data-label=Section]").allTextContents())
      .toContain("Shipping › Delivery times");
    expect(`› ${await passages.locator("tr[aria-current=true] td[data-label=Section]").textContent()}`).toBe(
      section.trim(),
    );
    await settled(page);
    await screenshot("knowledge-document");
    expect(await axeViolations(page)).toEqual([]);
    expect(unexpectedProblems(problems)).toEqual([]);
    expect(foreign).toEqual([]);
    await page.context().close();
  }, 120_000);

  it("uploads a PDF as a document: its pages become passages", async () => {
    const kb = await s.platform.knowledgeBases.create({ name: "Manuals" });
    const { page, problems } = await openConsole(s.browser, s.t.url);
    await signIn(page, s.t.url, s.t.tenant.key, `/console/knowledge-bases/${kb.id}`);
    const add = page.getByRole("form", { name: "Add a document" });
    await add.getByLabel("From a file (optional)").setInputFiles({
      name: "charger-manual.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from(pdfOf(["Charge the battery fully before first use.", "Warranty: two years."]), "base64"),
    });
    expect(await add.getByLabel("Type").inputValue()).toBe("pdf");
    expect(await add.getByLabel("Title").inputValue()).toBe("charger-manual");
    await add.getByRole("button", { name: "Add document" }).click();
    await add.getByRole("status").filter({ hasText: "Added “charger-manual”" }).waitFor({ timeout: 10_000 });
    await page.getByRole("link", { name: "charger-manual" }).click();
    const passages = page.getByRole("table", { name: "Passages" });
    await expect.poll(() => passages.textContent(), { timeout: 10_000 }).toContain("Charge the battery fully");
    expect(await passages.textContent()).toContain("Page 2");
    expect(unexpectedProblems(problems)).toEqual([]);
    await page.context().close();
  }, 60_000);

  it("searches a memory store from its page, and shows what knowledge_search and memory_search retrieved in a session", async () => {
    const kb = await s.platform.knowledgeBases.create({ name: "handbook" });
    await s.platform.knowledgeBases.createDocument(kb.id, { ...billing, contentType: "markdown" });
    const { page, problems, foreign, screenshot } = await openConsole(s.browser, s.t.url);
    await signIn(page, s.t.url, s.t.tenant.key, "/console/memory-stores");
    const form = page.getByRole("form", { name: "New memory store" });
    await form.getByLabel("Name").fill("customer-notes");
    await form.getByRole("button", { name: "Create memory store" }).click();
    await page.getByRole("heading", { name: "customer-notes", exact: true }).waitFor({ timeout: 10_000 });
    const write = page.getByRole("form", { name: "Write an entry" });
    for (const [key, content] of [
      ["customers/acme.md", "Acme prefers to be contacted by email. Their renewal is in March."],
      ["customers/globex.md", "Globex pays by invoice, net 30."],
    ] as const) {
      await write.getByLabel("Key", { exact: true }).fill(key);
      await write.getByLabel(/^Content/).fill(content);
      await write.getByRole("button", { name: "Save entry" }).click();
      await page.getByRole("table", { name: "Entries" }).getByText(key).waitFor({ timeout: 10_000 });
    }
    const search = page.getByRole("search", { name: "Search customer-notes" });
    await search.getByLabel("Search", { exact: true }).fill("how should acme be contacted");
    await search.getByRole("button", { name: "Search" }).click();
    const results = page.getByRole("region", { name: "Search results" });
    const first = results.getByRole("listitem").first();
    await expect.poll(() => first.getAttribute("aria-label"), { timeout: 15_000 }).toBe("Hit 1: customers/acme.md");
    expect(await first.locator("blockquote").textContent()).toContain("contacted by email");
    expect(await first.locator(".found-by").textContent()).toMatch(/meaning #1/);
    await screenshot("memory-store");
    expect(await axeViolations(page)).toEqual([]);

    // In a session, the tools' results read as passages and entries, not as JSON.
    const agent = await s.platform.agents.create({
      name: "Retriever",
      model: "builtin/script",
      tools: ["knowledge_search", "memory_search"],
      knowledgeBases: [kb.id],
      defaults: {
        resources: [{ memoryStoreId: "customer-notes", memoryStoreName: "customer-notes", mode: "read-only" }],
      },
    });
    const session = await s.platform.sessions.create({
      agent: agent.id,
      title: "Retrieval",
      events: [
        {
          type: "user.message",
          content: [{ type: "text", text: '/call knowledge_search {"query":"refunds within 30 days","limit":2}' }],
        },
      ],
    });
    await s.platform.sessions.waitForIdle(session.id, { afterSeq: 0, timeout: 20_000 });
    const ack = await s.platform.sessions.send(session.id, '/call memory_search {"query":"acme email"}');
    await s.platform.sessions.waitForIdle(session.id, { afterSeq: ack.events[0]!.seq, timeout: 20_000 });
    await page.goto(`${s.t.url}/console/sessions/${session.id}`);
    const log = page.getByRole("log", { name: "Session log" });
    const cited = log.getByRole("list", { name: "Passages retrieved" });
    await cited.waitFor({ timeout: 15_000 });
    const passage = cited.getByRole("listitem").first();
    expect(await passage.getAttribute("aria-label")).toBe("Passage [1] Billing handbook");
    expect(await passage.textContent()).toMatch(/\[1\] Billing handbook › Billing › Refund policycharacters \d+–\d+/);
    expect(await passage.locator("blockquote").textContent()).toContain("Refunds are issued within 30 days");
    // The JSON the model received is there on request, folded.
    expect(await log.getByText("As the model received it (JSON)").first().isVisible()).toBe(true);
    expect(await log.getByText('"citation": "[1]"').first().isVisible()).toBe(false);
    const entries = log.getByRole("list", { name: "Memory entries retrieved" });
    await entries.waitFor();
    expect(await entries.getByRole("listitem").first().getAttribute("aria-label")).toBe("Entry customers/acme.md");
    expect(await entries.textContent()).toContain("in customer-notes");
    await screenshot("session-retrieval");
    expect(await axeViolations(page)).toEqual([]);
    // The agent's page links the base it searches and the store it mounts.
    await page.getByRole("link", { name: "Retriever" }).click();
    await page.getByRole("heading", { name: "Knowledge and memory" }).waitFor();
    expect(await page.getByRole("link", { name: kb.id }).getAttribute("href")).toBe(
      `/console/knowledge-bases/${kb.id}`,
    );
    expect(await page.getByRole("link", { name: "customer-notes" }).getAttribute("href")).toMatch(
      /^\/console\/memory-stores\/ms_/,
    );
    expect(unexpectedProblems(problems)).toEqual([]);
    expect(foreign).toEqual([]);
    await page.context().close();
  }, 120_000);

  it("fits a 390-pixel-wide phone and passes axe, light and dark, on the new pages", async () => {
    const kb = await s.platform.knowledgeBases.create({ name: "A base with a rather long name to wrap on phones" });
    const doc = await s.platform.knowledgeBases.createDocument(kb.id, {
      ...shipping,
      title: "Shipping, returns and international orders: everything a customer asks",
      contentType: "markdown",
    });
    const store = await s.platform.memoryStores.create({ name: "phone-notes" });
    await s.platform.memoryStores.putEntry(store.id, { key: "customers/a-very-long-key-name/notes.md", content: "x" });
    const pages = {
      "knowledge-bases": "/console/knowledge-bases",
      "knowledge-base": `/console/knowledge-bases/${kb.id}`,
      "knowledge-document": `/console/knowledge-bases/${kb.id}/documents/${doc.id}`,
      "memory-stores": "/console/memory-stores",
      "memory-store": `/console/memory-stores/${store.id}`,
    };
    const { page, problems, screenshot } = await openConsole(s.browser, s.t.url, { width: 390, height: 844 });
    await signIn(page, s.t.url, s.t.tenant.key, "/console/sessions");
    for (const [name, path] of Object.entries(pages)) {
      await page.goto(`${s.t.url}${path}`);
      await page.locator("main h1").first().waitFor({ timeout: 15_000 });
      await settled(page);
      await screenshot(`phone-${name}`);
      expect(await horizontalOverflow(page), name).toBe(0);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [name, path] of Object.entries(pages)) {
        await page.goto(`${s.t.url}${path}`);
        await page.locator("main h1").first().waitFor({ timeout: 15_000 });
        await settled(page);
        expect(await axeViolations(page), `${name} (${scheme})`).toEqual([]);
        await screenshot(`${scheme === "dark" ? "dark" : "page"}-${name}`);
      }
    }
    expect(unexpectedProblems(problems)).toEqual([]);
    await page.context().close();
  }, 120_000);
});
