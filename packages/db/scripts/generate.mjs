// Runs `prisma generate`. The CLI insists on locating a native schema engine it cannot download here; generation does
// not use it, so any existing file satisfies the check (never do this for `migrate`, see stack notes).
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..", "..");
const require = createRequire(import.meta.url);
const cli = join(dirname(require.resolve("prisma/package.json")), "build", "index.js");
execFileSync(process.execPath, [cli, "generate", "--schema", join(root, "prisma", "schema")], {
  cwd: root,
  stdio: ["ignore", "inherit", "inherit"],
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    CHECKPOINT_DISABLE: "1",
  },
});
