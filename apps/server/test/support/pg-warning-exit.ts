import { onConcurrentQueryWarning } from "./pg-warning.js";

// Preloaded (`--import`) into the platform processes tests start: pg's concurrent-query warning ends the process
// with its stack, so the test that started it fails.
onConcurrentQueryWarning((warning) => {
  process.stderr.write(`pg concurrent-query warning:\n${warning.stack}\n`);
  process.exit(70);
});
