// Build step: fails when the committed openapi.json differs from the contract; `--write` regenerates it.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildOpenApiDocument } from "../openapi/index.js";

const file = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "openapi.json");
const fresh = `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
if (process.argv.includes("--write")) {
  writeFileSync(file, fresh);
  console.log(`Wrote ${file}`);
} else {
  let committed = "";
  try {
    committed = readFileSync(file, "utf8");
  } catch {}
  if (committed !== fresh) {
    console.error("packages/contract/openapi.json is stale: run `pnpm openapi` and commit the result.");
    process.exit(1);
  }
}
