import { defineConfig } from "tsup";

// The contract is bundled into the JS (scripts/build-types.mjs ships its declarations) so that the packed SDK installs outside this repository; zod, ts-rest and
// standardwebhooks stay dependencies. Sources are read through the workspace's `agent-platform-source` condition.
export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm"],
  platform: "neutral",
  target: "es2022",
  outDir: "dist",
  clean: true,
  sourcemap: true,
  tsconfig: "tsconfig.build.json",
  noExternal: ["@agent-platform/contract"],
  dts: false,
  esbuildOptions(options) {
    options.conditions = ["agent-platform-source"];
    options.mainFields = ["module", "main"];
  },
});
