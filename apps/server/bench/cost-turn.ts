// `pnpm bench` (cost and prompt caching): one turn of 20 tool calls on `anthropic/claude-sonnet-4-5` against the
// Anthropic fake, which caches prompts and reports cache reads and writes as the Messages API does (breakpoints the
// platform marks, 1024-token minimum). Prints the turn's cost from its `agent.usage` entries, what it would have cost
// with nothing cached, and the share of its input read from the cache. The platform, the fake and the MCP server run
// in this process (ROLE=all) on a fresh database.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.js";
import { costOf, modelCatalogueOf } from "../src/models/index.js";
import { startPlatform } from "../src/platform-process.js";
import { type FakeAnthropicRequest, startFakeAnthropic } from "../test/support/fake-anthropic.js";
import { startMcpServer } from "../test/support/mcp-server.js";
import { apiClient, benchPlatformEnv, freshDatabase, message } from "./support.js";

const CALLS = 20;
const MODEL = "anthropic/claude-sonnet-4-5";
const out = (line: string) => process.stdout.write(`${line}\n`);
const words = (n: number) => Array.from({ length: n }, (_, i) => `rule${i % 97}`).join(" ");

const fake = await startFakeAnthropic({
  reply: (request: FakeAnthropicRequest) => {
    // biome-ignore lint/suspicious/noExplicitAny: Messages API bodies as received
    const results = request.body.messages.filter((m: any) => m.role === "user").length - 1;
    return results < CALLS - 1 ? { toolCalls: [{ name: "docs__lorem", input: { words: 300 } }] } : { text: "Done." };
  },
});
const mcp = await startMcpServer({ transport: "streamable" });
const database = await freshDatabase();
const dataDir = mkdtempSync(join(tmpdir(), "ap-bench-"));
const key = `ap_bench_${randomBytes(16).toString("hex")}`;
const env = {
  ...benchPlatformEnv({ databaseUrl: database?.url, dataDir, apiKey: key, modelUrl: "http://127.0.0.1:9/v1" }),
  ANTHROPIC_API_KEY: "bench",
  ANTHROPIC_BASE_URL: fake.url,
  EGRESS_ALLOW_CIDRS: "127.0.0.0/8",
  WORKER_MAX_MODEL_CALLS: String(CALLS),
};
const platform = await startPlatform(loadConfig(env));

try {
  const api = apiClient(platform.url!, key);
  const base = `/v1/projects/${platform.bootstrap!.projectId}`;
  const agent = await api<{ id: string }>("POST", `${base}/agents`, {
    name: "cost",
    model: MODEL,
    system: `Follow the house rules. ${words(3_000)}`,
    mcpServers: [{ name: "docs", url: mcp.url }],
    toolPermissions: { docs__lorem: "always_allow" },
  });
  const session = await api<{ id: string }>("POST", `${base}/sessions`, { agent: agent.id, events: [message("go")] });
  // biome-ignore lint/suspicious/noExplicitAny: log entries read freely
  let log: any[] = [];
  while (!log.some((e) => e.type === "session.status_idle")) {
    await new Promise((r) => setTimeout(r, 20));
    // biome-ignore lint/suspicious/noExplicitAny: log page
    log = (await api<{ data: any[] }>("GET", `${base}/sessions/${session.id}/events?limit=500`)).data;
  }
  const record = await api<{ usage: Record<string, number> }>("GET", `${base}/sessions/${session.id}`);
  const usage = log.filter((e) => e.type === "agent.usage");
  const pricing = modelCatalogueOf(env).resolve({ provider: "anthropic", modelId: "claude-sonnet-4-5" }).pricing;
  const uncached = usage.reduce(
    (sum, e) => sum + (costOf(pricing, { inputTokens: e.inputTokens, outputTokens: e.outputTokens }) ?? 0),
    0,
  );
  const { inputTokens, cacheReadInputTokens, cacheWriteInputTokens, costUsd } = record.usage;
  out("");
  out(`Cost of one ${CALLS}-call tool turn on ${MODEL} (Anthropic fake with prompt caching)`);
  out("");
  out("| Measure | Value |");
  out("|---|---|");
  out(`| model calls | ${usage.length} |`);
  out(`| input tokens (cache read / written) | ${inputTokens} (${cacheReadInputTokens} / ${cacheWriteInputTokens}) |`);
  out(`| share of input read from the cache | ${((100 * cacheReadInputTokens!) / inputTokens!).toFixed(1)} % |`);
  out(`| cost of the turn (session usage.costUsd) | $${costUsd!.toFixed(6)} |`);
  out(`| same turn with nothing cached | $${uncached.toFixed(6)} |`);
  out("");
  if (usage.length !== CALLS || !(cacheReadInputTokens! > 0)) process.exitCode = 1;
} finally {
  await platform.close();
  await fake.close();
  await mcp.close();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
