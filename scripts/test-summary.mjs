// Prints the plain closing line of a test run, summed over the packages' vitest JSON reports.
import { existsSync, readFileSync } from "node:fs";

const reports = ["packages/contract/.vitest/report.json", "apps/server/.vitest/report.json"].filter(existsSync);
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of reports) {
  const report = JSON.parse(readFileSync(file, "utf8"));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
