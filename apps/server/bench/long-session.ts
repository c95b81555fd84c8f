// `pnpm bench` (long sessions): one session of 200 turns, each calling an MCP tool whose result is ~4 KB, on a model
// with a 32k-token window (openai-compatible fake, refusing prompts over it), against 200 one-turn sessions doing the
// same turn. Prints every call's prompt size (words as the fake counts them; it must stay below the window), the
// compactions and their cost, and the process CPU per turn of both. The platform, the fake model and the MCP server
// run in this process (ROLE=all) on a fresh database.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.js";
import { costOf } from "../src/models/index.js";
import { startPlatform } from "../src/platform-process.js";
import { type FakeReply, type FakeRequest, startFakeOpenAI } from "../test/support/fake-openai.js";
import { startMcpServer } from "../test/support/mcp-server.js";
import { apiClient, benchPlatformEnv, freshDatabase, message } from "./support.js";

const TURNS = 200;
const WINDOW = 32_768;
const PRICING = { input: 1, output: 4 };
const out = (line: string) => process.stdout.write(`${line}\n`);

// biome-ignore lint/suspicious/noExplicitAny: chat messages as received
const messagesOf = (request: FakeRequest) => request.body.messages as any[];
const isSummary = (r: FakeRequest) => String(messagesOf(r).at(-1)?.content ?? "").startsWith("Summarise this");
const wordsOf = (r: FakeRequest) =>
  messagesOf(r).reduce((sum, m) => sum + String(typeof m.content === "string" ? m.content : "").split(/\s+/).length, 0);

const fake = await startFakeOpenAI({ contextWindow: WINDOW });
fake.respondWith((request): FakeReply => {
  if (isSummary(request)) return { text: "Summary: the user asks for echoes of a long text; each succeeded." };
  if (messagesOf(request).at(-1)?.role === "tool") return { text: "Echoed." };
  // ~4 KB: 600 words of 6 characters and a space.
  return { toolCalls: [{ name: "docs__lorem", arguments: { words: 600 } }] };
});
const mcp = await startMcpServer({ transport: "streamable" });
const database = await freshDatabase();
const dataDir = mkdtempSync(join(tmpdir(), "ap-bench-"));
const key = `ap_bench_${randomBytes(16).toString("hex")}`;
const platform = await startPlatform(
  loadConfig({
    ...benchPlatformEnv({ databaseUrl: database?.url, dataDir, apiKey: key, modelUrl: fake.url }),
    EGRESS_ALLOW_CIDRS: "127.0.0.0/8",
  }),
);

try {
  const api = apiClient(platform.url!, key);
  const base = `/v1/projects/${platform.bootstrap!.projectId}`;
  const agent = await api<{ id: string }>("POST", `${base}/agents`, {
    name: "long",
    model: { id: "openai-compatible/fake-model", contextWindow: WINDOW, pricing: PRICING },
    mcpServers: [{ name: "docs", url: mcp.url }],
    toolPermissions: { docs__lorem: "always_allow" },
  });
  // Each session's log, read incrementally (`afterSeq`) until it has `count` turn ends.
  // biome-ignore lint/suspicious/noExplicitAny: log entries read freely
  const logs = new Map<string, any[]>();
  const waitIdle = async (id: string, count: number) => {
    const log = logs.get(id) ?? [];
    logs.set(id, log);
    for (;;) {
      // biome-ignore lint/suspicious/noExplicitAny: log page
      const page = await api<{ data: any[]; hasMore: boolean }>(
        "GET",
        `${base}/sessions/${id}/events?afterSeq=${log.at(-1)?.seq ?? 0}&limit=500`,
      );
      log.push(...page.data);
      if (log.filter((e) => e.type === "session.status_idle").length >= count) return log;
      if (!page.hasMore) await new Promise((r) => setTimeout(r, 5));
    }
  };

  // Short sessions: one turn each.
  let cpu = process.cpuUsage();
  for (let i = 0; i < TURNS; i++) {
    const session = await api<{ id: string }>("POST", `${base}/sessions`, { agent: agent.id, events: [message("go")] });
    await waitIdle(session.id, 1);
  }
  const shortCpu = process.cpuUsage(cpu);
  fake.reset();
  fake.respondWith((request): FakeReply => {
    if (isSummary(request)) return { text: "Summary: the user asks for echoes of a long text; each succeeded." };
    if (messagesOf(request).at(-1)?.role === "tool") return { text: "Echoed." };
    return { toolCalls: [{ name: "docs__lorem", arguments: { words: 600 } }] };
  });

  // One long session.
  cpu = process.cpuUsage();
  const session = await api<{ id: string }>("POST", `${base}/sessions`, { agent: agent.id, events: [message("go")] });
  let log = await waitIdle(session.id, 1);
  for (let turn = 2; turn <= TURNS; turn++) {
    await api("POST", `${base}/sessions/${session.id}/events`, { events: [message(`turn ${turn}`)] });
    log = await waitIdle(session.id, turn);
  }
  const longCpu = process.cpuUsage(cpu);

  const calls = fake.requests.filter((r) => r.path === "/v1/chat/completions");
  const sizes = calls.filter((r) => !isSummary(r)).map(wordsOf);
  const compactions = log.filter((e) => e.type === "session.compaction");
  const ends = log.filter((e) => e.type === "session.status_idle");
  const cost = compactions.reduce((sum, c) => sum + (costOf(PRICING, c.usage) ?? 0), 0);
  const perTurn = (usage: NodeJS.CpuUsage) => ((usage.user + usage.system) / 1000 / TURNS).toFixed(2);
  out("");
  out(`Long session: ${TURNS} turns, ~4 KB tool result each, ${WINDOW}-token window`);
  out(`Prompt size of every agent call (tokens as the fake counts them), in order:`);
  for (let i = 0; i < sizes.length; i += 25) out(`  ${sizes.slice(i, i + 25).join(" ")}`);
  out("");
  out("| Measure | Value |");
  out("|---|---|");
  out(`| turns ended end_turn | ${ends.filter((e) => e.stopReason === "end_turn").length} of ${ends.length} |`);
  out(`| largest prompt / window | ${Math.max(...sizes)} / ${WINDOW} |`);
  out(
    `| compactions | ${compactions.length} (${compactions.filter((c) => c.reason !== "threshold").length} after a refusal) |`,
  );
  out(`| compaction cost (at $${PRICING.input}/$${PRICING.output} per M tokens) | $${cost.toFixed(4)} |`);
  out(`| CPU per turn, long session | ${perTurn(longCpu)} ms |`);
  out(`| CPU per turn, one-turn sessions | ${perTurn(shortCpu)} ms |`);
  out("");
  if (Math.max(...sizes) > WINDOW || ends.some((e) => e.stopReason !== "end_turn")) process.exitCode = 1;
} finally {
  await platform.close();
  await fake.close();
  await mcp.close();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
