import { readFileSync } from "node:fs";
import { contract } from "@agent-platform/contract";
import { describe, expect, it } from "vitest";
import { docPages, ROOT } from "./doc-pages.js";

/**
 * The SDK examples of README.md and docs/*.md call `platform.<area>.<op>(…)`: every such call names a route of the
 * contract (the SDK's resource methods are the ts-rest route keys) or one of the session helpers the SDK adds.
 */

const SESSION_HELPERS = new Set(["send", "waitForIdle", "follow", "confirmToolUse", "answerCustomTool"]);

function sdkCalls(): { page: string; area: string; op: string }[] {
  return docPages().flatMap((page) => {
    const text = readFileSync(page, "utf8");
    const blocks = [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
    const inline = [...text.matchAll(/`(platform\.[^`]+)`/g)].map((m) => m[1]!);
    return [...blocks, ...inline].flatMap((code) =>
      [...code.matchAll(/\bplatform\.(\w+)\.(\w+)\(/g)].map((m) => ({
        page: page.slice(ROOT.length),
        area: m[1]!,
        op: m[2]!,
      })),
    );
  });
}

describe("SDK examples in the documentation", () => {
  it("call only operations that exist", () => {
    const calls = sdkCalls();
    expect(calls.length).toBeGreaterThan(40);
    const routes = contract as unknown as Record<string, Record<string, unknown>>;
    const unknown = calls
      .filter(({ area, op }) => !(area === "sessions" && SESSION_HELPERS.has(op)) && !routes[area]?.[op])
      .map(({ page, area, op }) => `${page}: platform.${area}.${op}`);
    expect(unknown).toEqual([]);
  });

  it("every area page has an SDK example", () => {
    const pagesWithCalls = new Set(sdkCalls().map((c) => c.page));
    for (const page of [
      "agents",
      "sessions",
      "skills",
      "automations",
      "experiments",
      "webhooks",
      "resources",
      "tools",
    ]) {
      expect(pagesWithCalls.has(`docs/${page}.md`), `docs/${page}.md`).toBe(true);
    }
  });
});
