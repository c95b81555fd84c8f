// The HTTP API calls of scripts/image-test.sh and scripts/upgrade-test.sh (a running platform, an admin key):
//   node scripts/image-test-api.mjs turn <base> <key> <model> <message> <expected reply> [tool…]
//       one turn in a new session; checks the agent's reply (and that tool results are not errors)
//   node scripts/image-test-api.mjs start-turn <base> <key> <model> <message> <state file>
//       one finished turn and one more turn left running in a second session; their ids go to <state file>
//   node scripts/image-test-api.mjs check-upgrade <base> <key> <state file> <old reply> <new reply>
//       the finished session reads back; the running one finishes with <new reply>
import { readFileSync, writeFileSync } from "node:fs";

const [command, base, key, ...args] = process.argv.slice(2);

async function call(method, path, body) {
  const response = await fetch(`${base}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body && JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
const events = async (project, session) =>
  (await call("GET", `/projects/${project}/sessions/${session}/events?afterSeq=0`)).data;
const replies = (log) =>
  log.filter((e) => e.type === "agent.message").map((e) => e.content.map((part) => part.text).join(""));

async function project() {
  return (await call("GET", "/platform/context")).project.id;
}

/** A new session of a new agent with one message sent. */
async function startSession(projectId, model, message, tools) {
  const agent = await call("POST", `/projects/${projectId}/agents`, { name: "Image test", model, tools });
  const session = await call("POST", `/projects/${projectId}/sessions`, { agent: agent.id });
  await call("POST", `/projects/${projectId}/sessions/${session.id}/events`, {
    events: [{ type: "user.message", content: [{ type: "text", text: message }] }],
  });
  return session.id;
}

/** The session's log once its turn has ended (`session.status_idle` last). */
async function idleLog(projectId, session, seconds = 60) {
  for (let i = 0; i < seconds * 10; i++) {
    const log = await events(projectId, session);
    if (log.at(-1)?.type === "session.status_idle") return log;
    await sleep(100);
  }
  throw new Error(`session ${session} was not idle within ${seconds} s`);
}

function expectReply(log, expected) {
  const got = replies(log).join("\n");
  if (got !== expected) throw new Error(`expected the reply ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`);
}

if (command === "turn") {
  const [model, message, expected, ...tools] = args;
  const projectId = await project();
  const log = await idleLog(projectId, await startSession(projectId, model, message, tools));
  expectReply(log, expected);
  for (const result of log.filter((e) => e.type === "agent.tool_result")) {
    const text = result.content.map((part) => part.text).join("");
    if (result.isError) throw new Error(`tool error: ${text}`);
    console.log(`  tool result: ${text.replace(/\s+/g, " ").slice(0, 300)}`);
  }
  console.log(`  turn: agent.message ${JSON.stringify(expected)}, ${log.length} log entries`);
} else if (command === "start-turn") {
  const [model, message, state] = args;
  const projectId = await project();
  const done = await startSession(projectId, model, "/say written by the previous release");
  await idleLog(projectId, done);
  const open = await startSession(projectId, model, message);
  for (let i = 0; !(await events(projectId, open)).some((e) => e.type === "session.status_running"); i++) {
    if (i > 300) throw new Error("the second turn did not start");
    await sleep(100);
  }
  writeFileSync(state, JSON.stringify({ project: projectId, done, open }));
} else if (command === "check-upgrade") {
  const [state, oldReply, newReply] = args;
  const { project: projectId, done, open } = JSON.parse(readFileSync(state, "utf8"));
  expectReply(await events(projectId, done), oldReply);
  const log = await idleLog(projectId, open);
  expectReply(log, newReply);
  console.log(`  both sessions read back through the new image (${log.length} entries in the one that was running)`);
} else {
  console.error(`unknown command ${command}`);
  process.exit(2);
}
