import { Worker } from "node:worker_threads";

/**
 * Vitest enforces test and hook timeouts with timers of the test process itself, so a test file whose event loop is
 * blocked (a synchronous or microtask-only loop) would hang the whole run with nothing printed. This watchdog, a
 * thread of its own in every test process, sees the main thread's heartbeat stop; after BLOCKED_LIMIT_MS it pauses the
 * main thread through the inspector, prints its JavaScript stack and kills the process, so the file fails with the
 * reason and the run goes on.
 */
const BLOCKED_LIMIT_MS = Number(process.env.TEST_BLOCKED_LIMIT_MS ?? 150_000);

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

const key = Symbol.for("agent-platform.blocked-loop-watchdog");
const scope = globalThis as { [key]?: boolean };
if (!scope[key]) {
  scope[key] = true;
  const beat = new Int32Array(new SharedArrayBuffer(4));
  setInterval(() => Atomics.add(beat, 0, 1), 1_000).unref();
  new Worker(WATCHDOG, {
    eval: true,
    workerData: { beat, limitMs: BLOCKED_LIMIT_MS },
  }).unref();
}
