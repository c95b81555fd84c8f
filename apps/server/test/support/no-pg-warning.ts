import { afterAll } from "vitest";
import { onConcurrentQueryWarning } from "./pg-warning.js";

// A setup file of every test file: the file fails when its process printed pg's concurrent-query warning.
const warnings: Error[] = [];
onConcurrentQueryWarning((warning) => warnings.push(warning));

afterAll(() => {
  if (warnings.length > 0) {
    throw new Error(`pg warned that a client was given a query while another one ran on it:\n${warnings[0]!.stack}`);
  }
});
