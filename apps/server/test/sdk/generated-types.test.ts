import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// The SDK's root types and route table are generated from the committed OpenAPI document and the contract: a change
// of either without `pnpm --filter @agent-platform/sdk generate` would ship stale types.
const SDK_DIR = join(import.meta.dirname, "..", "..", "..", "..", "packages", "sdk");

describe("SDK generated types", () => {
  it("match the contract", async () => {
    const result = await promisify(execFile)(process.execPath, ["scripts/generate-types.mjs", "--check"], {
      cwd: SDK_DIR,
    }).then(
      () => "in sync",
      (error: { stderr?: string }) => error.stderr ?? String(error),
    );
    expect(result).toBe("in sync");
  }, 60_000);
});
