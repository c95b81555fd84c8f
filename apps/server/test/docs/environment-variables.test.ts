import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * Every environment variable the server reads (apps/server/src, packages/db/src) is documented exactly once in a
 * table row of docs/operating.md, and every variable documented there is read somewhere (or by a library we name).
 */

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const SOURCES = ["apps/server/src", "packages/db/src"];
const OPERATING_MD = join(ROOT, "docs/operating.md");

/** Set by the shell or by pnpm, not settings of ours. */
const NOT_SETTINGS = new Set(["PATH", "INIT_CWD"]);
/** Read by a library the server starts, from the variables above. */
const READ_BY_LIBRARIES = new Set(["OTEL_RESOURCE_ATTRIBUTES"]);
/** Names built at run time: `env[\`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_ENDPOINT\`]`, signal traces or metrics. */
const TEMPLATES: Record<string, string[]> = {
  OTEL_EXPORTER_OTLP_: ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"],
  // runtime/browser/hosted-settings.ts: each hosted browser provider's settings, read with its prefix.
  BROWSER_PROVIDER_: ["BROWSER_PROVIDER_A_CLOUD", "BROWSER_PROVIDER_B"].flatMap((prefix) =>
    ["SESSION_URL", "CDP_URL", "API_KEY", "REGIONS", "CONNECT_TIMEOUT_MS"].map((name) => `${prefix}_${name}`),
  ),
};

const NAME = "[A-Z][A-Z0-9_]*[A-Z0-9]";
const READS = [
  // process.env.X, config.env.X, env.X, env?.X
  new RegExp(`\\benv\\??\\.(${NAME})\\b`, "g"),
  // env["X"]
  new RegExp(`\\benv\\[\\s*["'\`](${NAME})["'\`]\\s*\\]`, "g"),
  // integerSetting(env, "X", …), setting(config.env, "X")
  new RegExp(`\\benv\\s*,\\s*["'](${NAME})["']`, "g"),
  // export const CORS_VARIABLE = "CORS_ORIGINS"
  new RegExp(`_VARIABLE\\s*=\\s*["'](${NAME})["']`, "g"),
];
const TEMPLATE_READ = /\benv\[\s*`([A-Z0-9_]*)\$\{/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sourceFiles(path);
    return /\.(ts|mts|js|mjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

function variablesRead(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of SOURCES.flatMap((dir) => sourceFiles(join(ROOT, dir)))) {
    const text = readFileSync(file, "utf8");
    const where = file.slice(ROOT.length);
    for (const pattern of READS) for (const m of text.matchAll(pattern)) found.set(m[1]!, where);
    for (const m of text.matchAll(TEMPLATE_READ)) {
      const names = TEMPLATES[m[1]!];
      expect(names, `${where} builds a variable name from \`${m[1]}\${…}\`: list its names in TEMPLATES`).toBeDefined();
      for (const name of names!) found.set(name, where);
    }
  }
  for (const name of NOT_SETTINGS) found.delete(name);
  return found;
}

/** The first cell of every table row of docs/operating.md that is one `VARIABLE`. */
function documentedRows(): string[] {
  const text = readFileSync(OPERATING_MD, "utf8");
  return [...text.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1]!);
}

describe("environment variables in docs/operating.md", () => {
  it("finds the variables the server reads (the scan itself works)", () => {
    const read = variablesRead();
    for (const name of ["DATABASE_URL", "DATABASE_POOL_MAX", "OPENAI_API_KEY", "CORS_ORIGINS", "PRISMA_DIR"]) {
      expect(read.has(name), name).toBe(true);
    }
    expect(read.has("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")).toBe(true);
    expect(read.size).toBeGreaterThan(50);
  });

  it("documents every variable the server reads exactly once", () => {
    const rows = documentedRows();
    const problems = [...variablesRead()]
      .map(([name, where]) => ({ name, where, count: rows.filter((row) => row === name).length }))
      .filter((v) => v.count !== 1)
      .map((v) => `${v.name} (read in ${v.where}) has ${v.count} rows in docs/operating.md`);
    expect(problems).toEqual([]);
  });

  it("documents no variable that nothing reads", () => {
    const read = variablesRead();
    const stale = documentedRows().filter((name) => !read.has(name) && !READ_BY_LIBRARIES.has(name));
    expect(stale).toEqual([]);
  });

  it("other pages link to operating.md instead of keeping their own variable tables", () => {
    const pages = [
      join(ROOT, "README.md"),
      ...readdirSync(join(ROOT, "docs"))
        .filter((name) => name.endsWith(".md") && name !== "operating.md" && name !== "performance.md")
        .map((name) => join(ROOT, "docs", name)),
    ];
    const tables = pages.flatMap((page) =>
      [...readFileSync(page, "utf8").matchAll(/^\| `([A-Z][A-Z0-9_]+)`.*\|$/gm)]
        .filter((m) => variablesRead().has(m[1]!))
        .map((m) => `${page.slice(ROOT.length)}: ${m[1]}`),
    );
    expect(tables).toEqual([]);
  });
});
