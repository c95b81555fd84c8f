import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// The README's snippets are the type-checked files of packages/sdk/examples (`pnpm --filter @agent-platform/sdk readme`
// copies them in).
const SDK_DIR = join(import.meta.dirname, "..", "..", "..", "..", "packages", "sdk");
const readme = readFileSync(join(SDK_DIR, "README.md"), "utf8");
const examples = readdirSync(join(SDK_DIR, "examples")).filter((f) => f.endsWith(".ts"));

describe("SDK README", () => {
  it.each(examples)("shows examples/%s exactly", (name) => {
    const code = readFileSync(join(SDK_DIR, "examples", name), "utf8").trimEnd();
    expect(readme).toContain(`<!-- example: ${name} -->\n\`\`\`ts\n${code}\n\`\`\``);
  });

  it("shows no example that is not a checked file", () => {
    const shown = [...readme.matchAll(/<!-- example: ([\w-]+\.ts) -->/g)].map((m) => m[1]);
    expect(shown.sort()).toEqual([...examples].sort());
  });
});
