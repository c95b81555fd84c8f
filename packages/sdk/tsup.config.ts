import { defineConfig, type Options } from "tsup";

// Two builds of the same entries: ESM in dist/esm, CommonJS in dist/cjs (each folder has its own package.json
// "type", so both use `.js` and the declarations copied beside them by scripts/build-types.mjs fit both). The
// contract is bundled into the `contract` entry (scripts/build-types.mjs ships its declarations) so that the packed
// SDK installs outside this repository; zod, ts-rest and standardwebhooks stay dependencies. Sources are read through
// the workspace's `agent-platform-source` condition.
const shared: Options = {
  entry: { index: "src/index.ts", webhooks: "src/webhooks.ts", contract: "src/contract.ts" },
  platform: "neutral",
  target: "es2022",
  sourcemap: true,
  tsconfig: "tsconfig.build.json",
  noExternal: ["@agent-platform/contract"],
  dts: false,
  outExtension: () => ({ js: ".js" }),
  esbuildOptions(options) {
    options.conditions = ["agent-platform-source"];
    options.mainFields = ["module", "main"];
  },
};

export default defineConfig([
  { ...shared, format: ["esm"], outDir: "dist/esm", splitting: true, clean: true },
  { ...shared, format: ["cjs"], outDir: "dist/cjs", splitting: false, clean: true },
]);
