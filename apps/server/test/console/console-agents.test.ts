import { describe, expect, it } from "vitest";
import { hasChromium, horizontalOverflow, openConsole, signIn, unexpectedProblems } from "./console-browser.js";
import { consoleSuite } from "./console-suite.js";

// No provider configured but the built-in ones: an Anthropic model is refused with agent.invalid_model.
const s = consoleSuite({ env: { ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "" } });

describe.skipIf(!hasChromium)("the agent editor", () => {
  it("adds a tool and a permission without typing JSON, and shows a model error under the model field", async () => {
    const { page, problems, foreign, screenshot } = await openConsole(s.browser, s.t.url);
    await signIn(page, s.t.url, s.t.tenant.key, "/console/agents");
    await page.getByRole("heading", { name: "No agents yet" }).waitFor();
    await screenshot("agents-empty");
    await page.getByRole("link", { name: "New agent" }).first().click();
    await page.getByLabel("Name").fill("Support");
    // The catalogue's models: those of providers not configured here cannot be chosen.
    const model = page.getByLabel("Model", { exact: true });
    await expect.poll(() => model.locator("option").allTextContents()).toContain("builtin/echo");
    expect(await model.locator("option", { hasText: "anthropic/claude-sonnet-4-5" }).isDisabled()).toBe(true);
    await model.selectOption({ label: "Another model…" });
    await page.getByLabel("Model id").fill("anthropic/claude-sonnet-4-5");
    await page.getByRole("button", { name: "Create agent" }).click();
    // agent.invalid_model is the model field's error, shown under it.
    await expect
      .poll(() => page.locator("#field-model-errors").textContent(), { timeout: 10_000 })
      .toContain("ANTHROPIC_API_KEY");
    expect(await model.getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#field-name-errors").count()).toBe(0);
    await screenshot("agent-form-model-error");

    await model.selectOption("builtin/echo");
    await page.getByLabel("System prompt").fill("You answer support questions.\nBe kind.");
    await page.getByRole("checkbox", { name: /artifact_write/ }).check();
    await page.getByRole("button", { name: "Add custom tool" }).click();
    await page.getByLabel("Custom tool 1 name").fill("lookup_order");
    await page.getByLabel("Custom tool 1 description").fill("Looks an order up");
    await page.getByRole("button", { name: "Add parameter" }).click();
    await page.getByLabel("Custom tool 1 parameter 1 name").fill("orderId");
    await page.getByLabel("Custom tool 1 parameter 1 description").fill("The order's number");
    await page.getByRole("checkbox", { name: "required" }).check();
    await page.getByRole("button", { name: "Add permission" }).click();
    await page.getByLabel("Tool of permission 1").fill("artifact_write");
    await page.getByLabel("Policy of permission 1").selectOption("always_ask");
    await page.getByRole("button", { name: "Add metadata entry" }).click();
    await page.getByLabel("Key 1").fill("team");
    await page.getByLabel("Value 1").fill("support");
    await page
      .getByText("Tools", { exact: true })
      .evaluate((label) => (label as unknown as { scrollIntoView(): void }).scrollIntoView());
    await screenshot("agent-form");
    await page.getByRole("button", { name: "Create agent" }).click();
    await page.getByRole("heading", { name: "Support", exact: true }).waitFor({ timeout: 10_000 });
    const agentId = page.url().split("/").at(-1)!;
    const agent = await s.platform.agents.get(agentId);
    expect(agent).toMatchObject({
      model: "builtin/echo",
      system: "You answer support questions.\nBe kind.",
      tools: [
        "artifact_write",
        {
          type: "custom",
          name: "lookup_order",
          description: "Looks an order up",
          inputSchema: {
            type: "object",
            properties: { orderId: { type: "string", description: "The order's number" } },
            required: ["orderId"],
          },
        },
      ],
      toolPermissions: { artifact_write: "always_ask" },
      metadata: { team: "support" },
    });

    // An edit starts from the agent as it is: the same form, filled, publishes version 2.
    await page.getByRole("link", { name: "Edit" }).click();
    expect(await page.getByLabel("Custom tool 1 parameter 1 name").inputValue()).toBe("orderId");
    await page.getByRole("checkbox", { name: /web_fetch/ }).check();
    await page.getByRole("button", { name: "Save (publishes a new version)" }).click();
    await page.getByRole("heading", { name: "Support", exact: true }).waitFor({ timeout: 10_000 });
    expect((await s.platform.agents.get(agentId)).tools).toEqual(["artifact_write", "web_fetch", agent.tools![1]]);
    expect(unexpectedProblems(problems).filter((p) => !/status of 422/.test(p))).toEqual([]);
    expect(foreign).toEqual([]);
    await page.context().close();
  }, 90_000);

  it("diffs a long system prompt line by line, asks before a restore, duplicates", async () => {
    const lines = Array.from(
      { length: 300 },
      (_, i) => `Rule ${i + 1}: ${"be precise and kind to the customer ".repeat(3)}`,
    );
    const agent = await s.platform.agents.create({
      name: "Long prompt",
      model: "builtin/echo",
      system: lines.join("\n"),
    });
    const changed = [...lines];
    changed[149] = "Rule 150: never promise a refund.";
    await s.platform.agents.update(agent.id, { version: 1, system: changed.join("\n") });

    const { page, problems, screenshot } = await openConsole(s.browser, s.t.url);
    await signIn(page, s.t.url, s.t.tenant.key, `/console/agents/${agent.id}`);
    const diff = page.getByRole("region", { name: "System prompt from version 1 to version 2" });
    await diff.waitFor({ timeout: 10_000 });
    const shown = await diff.locator("div").allTextContents();
    expect(shown.filter((l) => l.startsWith("- "))).toEqual([`- ${lines[149]}`]);
    expect(shown.filter((l) => l.startsWith("+ "))).toEqual(["+ Rule 150: never promise a refund."]);
    expect(shown.filter((l) => l.includes("unchanged lines"))).toEqual([
      "  … 146 unchanged lines",
      "  … 147 unchanged lines",
    ]);
    // The rest of the configuration did not change: no second diff.
    expect(await page.getByRole("region", { name: "Changes from version 1 to version 2" }).count()).toBe(0);
    expect(await horizontalOverflow(page)).toBe(0);
    await page
      .getByRole("heading", { name: "Compare versions" })
      .evaluate((heading) => (heading as unknown as { scrollIntoView(): void }).scrollIntoView());
    await screenshot("agent-diff");

    // Restore asks first: dismissed, nothing is published; accepted, version 3.
    page.once("dialog", (dialog) => void dialog.dismiss());
    await page.getByRole("button", { name: "Restore version 1" }).click();
    await page.waitForTimeout(300);
    expect((await s.platform.agents.get(agent.id)).version).toBe(2);
    page.once("dialog", (dialog) => {
      expect(dialog.message()).toContain("published as version 3");
      void dialog.accept();
    });
    await page.getByRole("button", { name: "Restore version 1" }).click();
    await expect.poll(async () => (await s.platform.agents.get(agent.id)).version).toBe(3);
    expect((await s.platform.agents.get(agent.id)).system).toBe(lines.join("\n"));
    await page.getByRole("row", { name: /^3/ }).waitFor();

    // A session started from the agent's page opens, and the agent's reply arrives live.
    await page.getByLabel("Start a session with a first message").fill("hello from the console");
    await page.getByRole("button", { name: "Start session" }).click();
    await page
      .getByRole("log", { name: "Session log" })
      .getByRole("article", { name: "agent message" })
      .getByText("hello from the console")
      .waitFor({ timeout: 20_000 });
    await page.goBack();
    await page.getByRole("button", { name: "Duplicate" }).click();
    await expect.poll(() => page.url()).not.toContain(agent.id);
    expect(unexpectedProblems(problems)).toEqual([]);
    await page.context().close();
  }, 90_000);
});
