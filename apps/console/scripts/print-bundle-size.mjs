// Prints the initial JavaScript of /console (the entry script and the chunks index.html preloads), gzipped, and fails
// the build past the budget: the console's first load must stay small (docs/console.md, "Performance").
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const BUDGET_BYTES = 150 * 1024;
const dist = join(import.meta.dirname, "..", "dist");
const html = readFileSync(join(dist, "index.html"), "utf8");
const scripts = [...html.matchAll(/(?:src|href)="\/console\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
let total = 0;
for (const file of new Set(scripts)) {
  const size = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  total += size;
  console.log(`  ${file}  ${(size / 1024).toFixed(1)} KB gzip`);
}
console.log(`console: initial JavaScript ${(total / 1024).toFixed(1)} KB gzip (budget ${BUDGET_BYTES / 1024} KB)`);
if (total > BUDGET_BYTES) {
  console.error("console: the initial JavaScript is over its budget");
  process.exit(1);
}
