// `pnpm bench` (last part): a 200-case model experiment against an instant fake OpenAI-compatible model on loopback,
// from `POST …/experiments` to `status: completed`, with the experiment's default concurrency (4) and with 32. The
// platform runs with ROLE=all on a fresh database; the fake model runs in this process too (it answers at once).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.js";
import { startPlatform } from "../src/platform-process.js";
import { startFakeOpenAI } from "../test/support/fake-openai.js";
import { apiClient, benchPlatformEnv, freshDatabase } from "./support.js";

const CASES = 200;
const fake = await startFakeOpenAI();
const database = await freshDatabase();
const dataDir = mkdtempSync(join(tmpdir(), "ap-bench-"));
const key = `ap_bench_${randomBytes(16).toString("hex")}`;
const platform = await startPlatform(
  loadConfig({
    ...benchPlatformEnv({ databaseUrl: database?.url, dataDir, apiKey: key, modelUrl: fake.url }),
  }),
);
const out = (line: string) => process.stdout.write(`${line}\n`);

try {
  const api = apiClient(platform.url!, key);
  const base = `/v1/projects/${platform.bootstrap!.projectId}`;
  const cases = Array.from({ length: CASES }, (_, i) => ({ input: `question ${i}`, expected: `question ${i}` }));
  const dataset = await api<{ id: string }>("POST", `${base}/datasets`, { name: "bench", cases });
  const run = async (concurrency: number) => {
    const started = performance.now();
    const experiment = await api<{ id: string }>("POST", `${base}/experiments`, {
      datasetId: dataset.id,
      name: `bench ×${concurrency}`,
      task: { type: "model", model: "openai-compatible/fake-model" },
      scorers: [{ type: "exact_match" }, { type: "not_empty" }],
      concurrency,
    });
    for (;;) {
      const current = await api<{ status: string; totals: { completed: number } | null }>(
        "GET",
        `${base}/experiments/${experiment.id}`,
      );
      if (current.status === "completed" || current.status === "failed") {
        if (current.totals?.completed !== CASES) throw new Error(`experiment ended ${current.status}`);
        break;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    return performance.now() - started;
  };
  await run(8); // warm-up
  const rows: [string, string][] = [];
  for (const concurrency of [4, 32]) {
    const ms = await run(concurrency);
    rows.push([
      `${CASES}-case model experiment, concurrency ${concurrency}: creation → completed`,
      `${(ms / 1000).toFixed(2)} s · ${Math.round((CASES / ms) * 1000)} cases/s`,
    ]);
  }
  const width = Math.max(...rows.map(([label]) => label.length));
  out("");
  out(`| ${"Experiment".padEnd(width)} | Result |`);
  out(`|${"-".repeat(width + 2)}|--------|`);
  for (const [label, value] of rows) out(`| ${label.padEnd(width)} | ${value} |`);
  out("");
} finally {
  await platform.close();
  await fake.close();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
