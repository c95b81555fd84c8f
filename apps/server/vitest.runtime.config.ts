import { defineConfig } from "vitest/config";
import { workspaceAliases } from "../../vitest.shared.js";

// Runtime tests (models, MCP) need no database: no globalSetup here. Workspace packages come from
// source through aliases, not the `source` condition: eventsource-parser (used by the AI SDK and the
// MCP SDK) also exports a `source` condition pointing at TypeScript files Node cannot load.
export default defineConfig({
  resolve: { alias: workspaceAliases },
  test: {
    include: ["test/runtime/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
});
