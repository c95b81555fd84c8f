// Runs `prisma generate`. The CLI insists on locating a native schema engine it cannot download here; generation does
// not use it, so any existing file satisfies the check (never do this for `migrate`, see stack notes).
// Skipped when the client was generated from the same schema by the same Prisma version (the stamp below): the build
// runs right after `pnpm install`'s postinstall generated it, and a first `pnpm start` should not pay for it twice.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..", "..");
const schemaDir = join(root, "prisma", "schema");
const output = join(here, "..", "src", "generated", "prisma");
const stamp = join(output, ".schema-hash");
const require = createRequire(import.meta.url);
const prismaPackage = require.resolve("prisma/package.json");

const hash = createHash("sha256").update(JSON.parse(readFileSync(prismaPackage, "utf8")).version);
for (const name of readdirSync(schemaDir).sort()) hash.update(name).update(readFileSync(join(schemaDir, name)));
const digest = hash.digest("hex");
if (existsSync(join(output, "client.ts")) && existsSync(stamp) && readFileSync(stamp, "utf8") === digest) {
  console.log("Prisma client is up to date with prisma/schema (skipped prisma generate)");
  process.exit(0);
}

const cli = join(dirname(prismaPackage), "build", "index.js");
execFileSync(process.execPath, [cli, "generate", "--schema", schemaDir], {
  cwd: root,
  stdio: ["ignore", "inherit", "inherit"],
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    CHECKPOINT_DISABLE: "1",
  },
});
writeFileSync(stamp, digest);
