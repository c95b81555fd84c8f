import { execFile } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";

// The SDK as a user gets it: built, packed, installed with npm into an empty folder outside the workspace, its README
// examples type-checked (strict, `nodenext`) in an ESM and a CommonJS project and run against a real server with the
// offline `builtin/script` model, and a one-call browser bundle measured.
const run = promisify(execFile);
const SDK_DIR = join(import.meta.dirname, "..", "..", "..", "..", "packages", "sdk");
const EXAMPLES_DIR = join(SDK_DIR, "examples");
const sdkRequire = createRequire(join(SDK_DIR, "package.json"));
const TSC = sdkRequire.resolve("typescript/bin/tsc");
// esbuild is the SDK's development dependency (not the server's): its `build`, as far as this test calls it.
type Build = (options: Record<string, unknown>) => Promise<{ outputFiles: { contents: Uint8Array }[] }>;
const { build } = sdkRequire("esbuild") as { build: Build };

/** Newest modification time of the files under `path`. */
function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** The build's inputs are older than its output: building again would produce the same dist. */
function distIsFresh(): boolean {
  const output = join(SDK_DIR, "dist", "cjs", "index.d.ts");
  if (!existsSync(output) || !existsSync(join(SDK_DIR, "dist", "esm", "contract-types", "index.d.ts"))) return false;
  const inputs = ["src", "scripts", "package.json", "tsup.config.ts", "../contract/src", "../contract/package.json"];
  return Math.max(...inputs.map((input) => newest(join(SDK_DIR, input)))) < statSync(output).mtimeMs;
}

const COMPILER_OPTIONS = {
  target: "ES2022",
  module: "NodeNext",
  moduleResolution: "NodeNext",
  lib: ["ES2023", "DOM"],
  types: [],
  strict: true,
  skipLibCheck: false,
  outDir: "out",
};

/** The example as a CommonJS file: its imports, then its body in an async function (no top-level await there). */
function asCommonJs(code: string): string {
  const imports = code.match(/^import[\s\S]*?from "[^"]+";\n/gm) ?? [];
  let body = code;
  for (const statement of imports) body = body.replace(statement, "");
  return `${imports.join("")}\nexport async function main(): Promise<void> {\n${body.replaceAll(/^export /gm, "")}\n}\n`;
}

async function typecheck(dir: string): Promise<string> {
  return run(process.execPath, [TSC, "-p", "tsconfig.json"], { cwd: dir }).then(
    () => "ok",
    (error: { stdout?: string; stderr?: string }) => `${error.stdout}${error.stderr}`,
  );
}

let t: TestApp;
let folder: string;
const examples = readdirSync(EXAMPLES_DIR).filter((f) => f.endsWith(".ts"));
beforeAll(async () => {
  t = await startTestApp({ role: "all" });
  folder = mkdtempSync(join(tmpdir(), "ap-sdk-pack-"));
  if (!distIsFresh()) await run("pnpm", ["run", "build"], { cwd: SDK_DIR });
  await run("pnpm", ["pack", "--pack-destination", folder], { cwd: SDK_DIR });
  const tarball = readdirSync(folder).find((f) => f.endsWith(".tgz"))!;
  writeFileSync(join(folder, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  await run("npm", ["install", `./${tarball}`, "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: folder,
  });
}, 180_000);
afterAll(async () => {
  await t?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe("packed SDK", () => {
  it("declares ESM and CommonJS entries without Node.js built-ins or workspace dependencies", () => {
    const manifest = JSON.parse(readFileSync(join(folder, "node_modules/@agent-platform/sdk/package.json"), "utf8"));
    expect(JSON.stringify(manifest.dependencies ?? {})).not.toContain("workspace:");
    expect(manifest).toMatchObject({ sideEffects: false, license: "MIT" });
    for (const entry of [".", "./webhooks", "./contract"]) {
      expect(Object.keys(manifest.exports[entry])).toEqual(expect.arrayContaining(["import", "require"]));
    }
    const esm = readFileSync(join(SDK_DIR, "dist", "esm", "index.js"), "utf8");
    expect(esm).not.toMatch(/from\s*["']node:|require\(["']node:|import\(["']node:/);
    expect(esm).not.toMatch(/from\s*["'](zod|@ts-rest\/core|fs|path|crypto|http|https|net|os|child_process)["']/);
  });

  it("type-checks the README's examples in an ESM and a CommonJS project and runs them against a server", async () => {
    const esm = join(folder, "esm");
    const cjs = join(folder, "cjs");
    mkdirSync(esm);
    mkdirSync(cjs);
    writeFileSync(join(cjs, "package.json"), JSON.stringify({ name: "consumer-cjs", private: true }));
    for (const name of examples) {
      const code = readFileSync(join(EXAMPLES_DIR, name), "utf8");
      cpSync(join(EXAMPLES_DIR, name), join(esm, name));
      writeFileSync(join(cjs, name), asCommonJs(code));
    }
    for (const dir of [esm, cjs]) {
      const files = examples;
      writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: COMPILER_OPTIONS, files }));
      expect(await typecheck(dir)).toBe("ok");
    }
    expect(readFileSync(join(cjs, "out", "quickstart.js"), "utf8")).toContain('require("@agent-platform/sdk")');

    const env = { PATH: process.env.PATH ?? "", AGENT_PLATFORM_API_KEY: t.tenant.key, AGENT_PLATFORM_BASE_URL: t.url };
    const outputs: Record<string, string> = {};
    for (const name of examples) {
      const file = name.replace(/\.ts$/, ".js");
      const { stdout } = await run(process.execPath, [join("out", file)], { cwd: esm, env });
      outputs[name] = stdout;
    }
    // What the examples' comments say they print.
    expect(outputs["quickstart.ts"]).toContain("agent: Hello, agent!");
    expect(outputs["custom-tools.ts"]).toContain("agent: Order 42 shipped yesterday");
    expect(outputs["tool-confirmations.ts"]).toContain("turn stopped: requires_action\nturn stopped: end_turn");
    expect(outputs["tool-confirmations.ts"]).toContain("[ 'report.md' ]");
    expect(outputs["errors.ts"]).toContain("no such agent");

    const runCjs = `require("./out/custom-tools.js").main().catch((e) => { console.error(e); process.exit(1); });`;
    const { stdout } = await run(process.execPath, ["-e", runCjs], { cwd: cjs, env });
    expect(stdout).toContain("agent: Order 42 shipped yesterday");
  }, 120_000);

  it("bundles a one-call browser page under 15 KB gzip, and verifyWebhook alone under 10 KB", async () => {
    const bundle = async (source: string) => {
      const result = await build({
        stdin: { contents: source, resolveDir: folder, loader: "ts" },
        bundle: true,
        minify: true,
        format: "esm",
        platform: "browser",
        write: false,
        logLevel: "silent",
      });
      return gzipSync(result.outputFiles[0]!.contents).length;
    };
    const oneCall = await bundle(
      'import { AgentPlatform } from "@agent-platform/sdk";\n' +
        'new AgentPlatform({ apiKey: "k" }).agents.list().then((page) => console.log(page.data.length));\n',
    );
    const verify = await bundle(
      'import { verifyWebhook } from "@agent-platform/sdk/webhooks";\nconsole.log(verifyWebhook("{}", {}, "whsec_x"));\n',
    );
    expect(oneCall).toBeLessThan(15_000);
    expect(verify).toBeLessThan(10_000);
  });
});
