// `pnpm bench` (outcomes): the overhead of grading a turn's final answer against an outcome, with an instant fake
// OpenAI-compatible model on loopback. The same one-message turn is run sequentially without an outcome, with a
// deterministic scorer (`contains`: no model call), and with an `llm_judge` (one judge call to the fake); the
// difference of the mean times from creation to `end_turn` is the grading step's cost. ROLE=all, fresh database.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.js";
import { startPlatform } from "../src/platform-process.js";
import { startFakeOpenAI } from "../test/support/fake-openai.js";
import { apiClient, benchPlatformEnv, freshDatabase } from "./support.js";

const TURNS = 40;
const fake = await startFakeOpenAI();
fake.respondWith((request) => {
  // biome-ignore lint/suspicious/noExplicitAny: chat messages as the fake server received them
  const system = String((request.body.messages as any[])[0]?.content ?? "");
  return { text: system.startsWith("You grade answers") ? '{"score": 1, "reason": "fine"}' : "The work is done." };
});
const database = await freshDatabase();
const dataDir = mkdtempSync(join(tmpdir(), "ap-bench-"));
const key = `ap_bench_${randomBytes(16).toString("hex")}`;
const platform = await startPlatform(
  loadConfig({ ...benchPlatformEnv({ databaseUrl: database?.url, dataDir, apiKey: key, modelUrl: fake.url }) }),
);
const out = (line: string) => process.stdout.write(`${line}\n`);

try {
  const api = apiClient(platform.url!, key);
  const base = `/v1/projects/${platform.bootstrap!.projectId}`;
  const agent = await api<{ id: string }>("POST", `${base}/agents`, {
    name: "bench outcomes",
    model: "openai-compatible/fake-model",
  });
  const turn = async (outcome: unknown): Promise<number> => {
    const started = performance.now();
    const session = await api<{ id: string }>("POST", `${base}/sessions`, {
      agent: agent.id,
      ...(outcome ? { outcome } : {}),
      events: [{ type: "user.message", content: [{ type: "text", text: "Do the work." }] }],
    });
    for (;;) {
      const current = await api<{ stopReason: string | null }>("GET", `${base}/sessions/${session.id}`);
      if (current.stopReason === "end_turn") break;
      if (current.stopReason !== null) throw new Error(`turn ended ${current.stopReason}`);
      await new Promise((r) => setTimeout(r, 2));
    }
    return performance.now() - started;
  };
  const mean = async (outcome: unknown) => {
    let total = 0;
    for (let i = 0; i < TURNS; i++) total += await turn(outcome);
    return total / TURNS;
  };
  await mean(undefined); // warm-up
  const plain = await mean(undefined);
  const contains = await mean({ scorers: [{ type: "contains", value: "done" }] });
  const judge = await mean({ scorers: [{ type: "llm_judge", rubric: "The work is reported done." }] });
  const rows: [string, string][] = [
    [`one-message turn without an outcome (mean of ${TURNS})`, `${plain.toFixed(1)} ms`],
    [
      "with an outcome, `contains` scorer (no model call)",
      `${contains.toFixed(1)} ms (+${(contains - plain).toFixed(1)} ms)`,
    ],
    [
      "with an outcome, `llm_judge` scorer (one judge call)",
      `${judge.toFixed(1)} ms (+${(judge - plain).toFixed(1)} ms)`,
    ],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  out("");
  out(`| ${"Outcome grading".padEnd(width)} | Result |`);
  out(`|${"-".repeat(width + 2)}|--------|`);
  for (const [label, value] of rows) out(`| ${label.padEnd(width)} | ${value} |`);
  out("");
} finally {
  await platform.close();
  await fake.close();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
