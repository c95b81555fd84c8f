// `pnpm --filter @agent-platform/server bench:guardrails`: what guardrails cost. (1) The offline checks' CPU time per
// text (a 2 KB support message, and a 20 KB web page). (2) The server process's CPU time per one-message turn (ROLE=all,
// an instant fake OpenAI-compatible model on loopback, fresh database), for an agent without guardrails, with offline
// input and output guardrails that find nothing, and with an input guardrail that redacts posted messages where they
// are stored (the ingestion transaction path). Compare the first row with the same bench on a checkout without
// guardrails for the cost of having the feature at all; CPU time, not wall time, so the figures hold on a busy machine.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { GuardrailCheck } from "@agent-platform/contract";
import { loadConfig } from "../src/config.js";
import { type OfflineCheck, runOfflineCheck } from "../src/guardrails/index.js";
import { startPlatform } from "../src/platform-process.js";
import { startFakeOpenAI } from "../test/support/fake-openai.js";
import { apiClient, benchPlatformEnv, freshDatabase, message } from "./support.js";

const TURNS = 60;
const out = (line: string) => process.stdout.write(`${line}\n`);
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const MESSAGE = `Hello, I ordered a blue jacket last week (order 20931) and it has not arrived yet. ${"Could you check the delivery status and tell me when it will come? ".repeat(28)}`;
const PAGE = `<p>Opening hours, prices and directions for our shop.</p> ${"We are open from 9 to 5 on weekdays, and our staff will gladly help you choose. ".repeat(250)}`;

function checkCost(check: OfflineCheck, text: string): number {
  const runs = 400;
  for (let i = 0; i < 20; i++) runOfflineCheck(check, text);
  const started = cpuMs();
  for (let i = 0; i < runs; i++) runOfflineCheck(check, text);
  return ((cpuMs() - started) / runs) * 1000;
}

const checks: [string, OfflineCheck][] = [
  ["pii (all kinds)", { type: "pii" }],
  ["secrets", { type: "secrets" }],
  ["prompt_injection", { type: "prompt_injection" }],
  ["language", { type: "language", allow: ["eng"] }],
  ["length", { type: "length", maxChars: 100_000 }],
];
out("");
out(`| Offline check (CPU per text) | ${MESSAGE.length} chars | ${PAGE.length} chars |`);
out("|---|---|---|");
for (const [label, check] of checks) {
  out(`| ${label} | ${checkCost(check, MESSAGE).toFixed(0)} µs | ${checkCost(check, PAGE).toFixed(0)} µs |`);
}

const fake = await startFakeOpenAI();
fake.respondWith(() => ({ text: "Your jacket ships tomorrow." }));
const database = await freshDatabase();
const dataDir = mkdtempSync(join(tmpdir(), "ap-bench-"));
const key = `ap_bench_${randomBytes(16).toString("hex")}`;
const platform = await startPlatform(
  loadConfig({ ...benchPlatformEnv({ databaseUrl: database?.url, dataDir, apiKey: key, modelUrl: fake.url }) }),
);

try {
  const api = apiClient(platform.url!, key);
  const base = `/v1/projects/${platform.bootstrap!.projectId}`;
  const agentWith = async (guardrails: unknown[] | undefined) =>
    (
      await api<{ id: string }>("POST", `${base}/agents`, {
        name: "bench guardrails",
        model: "openai-compatible/fake-model",
        ...(guardrails ? { guardrails } : {}),
      })
    ).id;
  const offline = (stage: string, check: GuardrailCheck, action: string) => ({ stage, check, action });
  const agents: [string, string][] = [
    ["no guardrails", await agentWith(undefined)],
    [
      "input pii + injection flags, output secrets block (nothing found)",
      await agentWith([
        offline("input", { type: "pii" }, "flag"),
        offline("input", { type: "prompt_injection" }, "flag"),
        offline("output", { type: "secrets" }, "block"),
      ]),
    ],
    [
      "input pii redact, stored redacted (ingestion's transaction path)",
      await agentWith([offline("input", { type: "pii" }, "redact")]),
    ],
  ];
  const turn = async (agentId: string) => {
    const session = await api<{ id: string }>("POST", `${base}/sessions`, { agent: agentId });
    await api("POST", `${base}/sessions/${session.id}/events`, { events: [message(MESSAGE)] });
    for (;;) {
      const current = await api<{ stopReason: string | null }>("GET", `${base}/sessions/${session.id}`);
      if (current.stopReason === "end_turn") return;
      if (current.stopReason !== null) throw new Error(`turn ended ${current.stopReason}`);
      await new Promise((r) => setTimeout(r, 2));
    }
  };
  for (const [, agentId] of agents) for (let i = 0; i < 10; i++) await turn(agentId); // warm-up
  out("");
  out(`| One-message turn (server process CPU, mean of ${TURNS}, polling included) | CPU per turn |`);
  out("|---|---|");
  for (const [label, agentId] of agents) {
    const started = cpuMs();
    for (let i = 0; i < TURNS; i++) await turn(agentId);
    out(`| ${label} | ${((cpuMs() - started) / TURNS).toFixed(2)} ms |`);
  }
  out("");
} finally {
  await platform.close();
  await fake.close();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
