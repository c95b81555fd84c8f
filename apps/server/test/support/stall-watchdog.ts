import { writeSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";

/**
 * A test file that stalls would hang the whole run with nothing printed: vitest enforces test and hook timeouts with
 * timers of the test process itself, and waits without a limit for a file to be imported and to report its end. Two
 * watchdogs in every test process turn a stall into a failure of that file with where it stood, and the run goes on:
 * - a thread of its own sees the main thread's heartbeat stop (a synchronous or microtask-only loop); after
 *   BLOCKED_LIMIT_MS it pauses the main thread through the inspector, prints its JavaScript stack and kills the process;
 * - a timer sees no test start or end for STALL_LIMIT_MS (far above any test's and hook's timeout) and prints the step
 *   it was at and the process's active resources before killing it.
 */
const BLOCKED_LIMIT_MS = Number(process.env.TEST_BLOCKED_LIMIT_MS ?? 150_000);
const STALL_LIMIT_MS = Number(process.env.TEST_STALL_LIMIT_MS ?? 600_000);

const WATCHDOG = `
const { workerData } = require("node:worker_threads");
const { writeSync } = require("node:fs");
const inspector = require("node:inspector");
const { beat, limitMs } = workerData;
const say = (text) => writeSync(2, "[watchdog] " + text + "\\n");
let last = Atomics.load(beat, 0);
let since = Date.now();
const timer = setInterval(() => {
  const now = Atomics.load(beat, 0);
  if (now !== last) { last = now; since = Date.now(); return; }
  if (Date.now() - since < limitMs) return;
  clearInterval(timer);
  say("the test process's event loop has been blocked for " + Math.round((Date.now() - since) / 1000) + " s: its stack, then it is killed");
  setTimeout(() => {
    say("no stack: the main thread is blocked outside JavaScript");
    process.kill(process.pid, "SIGKILL");
  }, 10000);
  const session = new inspector.Session();
  session.connectToMainThread();
  const scripts = new Map();
  session.on("Debugger.scriptParsed", ({ params }) => scripts.set(params.scriptId, params.url));
  session.on("Debugger.paused", ({ params }) => {
    const frames = params.callFrames.map((f) => "  at " + (f.functionName || "<anonymous>") + " (" + (f.url || scripts.get(f.location.scriptId) || "?") + ":" + (f.location.lineNumber + 1) + ":" + (f.location.columnNumber + 1) + ")");
    say("main thread stack:\\n" + frames.join("\\n"));
    process.kill(process.pid, "SIGKILL");
  });
  session.post("Debugger.enable", () => session.post("Debugger.pause"));
}, 1000);
`;

// One watchdog per process (a setup file runs again for every test file a process runs).
const key = Symbol.for("agent-platform.stall-watchdog");
const scope = globalThis as { [key]?: { step: string; since: number } };
const progress = scope[key] ?? { step: "", since: 0 };
const at = (step: string) => {
  progress.step = step;
  progress.since = Date.now();
};
at("importing the test file");
beforeAll(() => at("running the beforeAll hooks"));
beforeEach(({ task }) => at(`running "${task.name}"`));
afterEach(({ task }) => at(`after "${task.name}"`));
afterAll(() => at("ending the file (its afterAll hooks and the report of its end)"));

if (!scope[key]) {
  scope[key] = progress;
  const beat = new Int32Array(new SharedArrayBuffer(4));
  setInterval(() => Atomics.add(beat, 0, 1), 1_000).unref();
  new Worker(WATCHDOG, { eval: true, workerData: { beat, limitMs: BLOCKED_LIMIT_MS } }).unref();
  setInterval(() => {
    if (Date.now() - progress.since < STALL_LIMIT_MS) return;
    writeSync(
      2,
      `\n[watchdog] no test started or ended for ${Math.round((Date.now() - progress.since) / 1000)} s; last step: ` +
        `${progress.step}; active resources: ${process.getActiveResourcesInfo().join(", ")}. Killing the test process.\n`,
    );
    process.kill(process.pid, "SIGKILL");
  }, 5_000).unref();
}
