import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";

// The SDK as a user gets it: built, packed, installed with npm into an empty folder (no workspace), type-checked
// with tsc for a browser-like target (DOM lib, no Node types) and run against a real server.
const run = promisify(execFile);
const SDK_DIR = join(import.meta.dirname, "..", "..", "..", "..", "packages", "sdk");
const TSC = createRequire(join(SDK_DIR, "..", "..", "package.json")).resolve("typescript/bin/tsc");

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

let t: TestApp;
let folder: string;
beforeAll(async () => {
  t = await startTestApp();
  folder = mkdtempSync(join(tmpdir(), "ap-sdk-pack-"));
}, 60_000);
afterAll(async () => {
  await t?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const USAGE = `import { AgentPlatform, isApiError, type SessionLogEvent } from "@agent-platform/sdk";

export async function main(apiKey: string, baseUrl: string): Promise<string> {
  const platform = new AgentPlatform({ apiKey, baseUrl });
  const context = await platform.context();
  const agents = await platform.agents.list({ status: "all" });
  const text = (e: SessionLogEvent): string => (e.type === "agent.message" ? (e.content[0]?.text ?? "") : e.type);
  try {
    await platform.agents.get("agent_missing");
    return "found";
  } catch (error) {
    if (!isApiError(error, "agent.not_found")) throw error;
    return JSON.stringify({ project: context.project.id, agents: agents.data.length, code: error.code, text: typeof text });
  }
}
`;

describe("packed SDK", () => {
  it("has no Node.js built-ins in its main entry", async () => {
    if (!distIsFresh()) await run("pnpm", ["run", "build"], { cwd: SDK_DIR });
    const dist = readFileSync(join(SDK_DIR, "dist", "esm", "index.js"), "utf8");
    expect(dist).not.toMatch(/from\s*["']node:|require\(["']node:|import\(["']node:/);
    expect(dist).not.toMatch(/from\s*["'](fs|path|crypto|http|https|net|os|child_process)["']/);
    expect(dist).not.toContain("@agent-platform/contract");
  }, 90_000);

  it("installs from its tarball outside the repository, typechecks and runs", async () => {
    await run("pnpm", ["pack", "--pack-destination", folder], { cwd: SDK_DIR });
    const tarball = readdirSync(folder).find((f) => f.endsWith(".tgz"))!;
    expect(tarball).toBeDefined();
    writeFileSync(join(folder, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    await run("npm", ["install", `./${tarball}`, "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: folder,
    });
    const manifest = JSON.parse(readFileSync(join(folder, "node_modules/@agent-platform/sdk/package.json"), "utf8"));
    expect(JSON.stringify(manifest.dependencies ?? {})).not.toContain("workspace:");

    writeFileSync(join(folder, "usage.ts"), USAGE);
    writeFileSync(
      join(folder, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "ESNext",
          moduleResolution: "Bundler",
          lib: ["ES2022", "DOM"],
          types: [],
          strict: true,
          skipLibCheck: false,
          outDir: "out",
        },
        files: ["usage.ts"],
      }),
    );
    const checked = await run(process.execPath, [TSC, "-p", "tsconfig.json"], { cwd: folder }).then(
      () => "ok",
      (error: { stdout?: string; stderr?: string }) => `${error.stdout}${error.stderr}`,
    );
    expect(checked).toBe("ok");

    const runner = `import { main } from "./out/usage.js";\nconsole.log(await main(process.env.KEY, process.env.URL));\n`;
    writeFileSync(join(folder, "run.mjs"), runner);
    const { stdout } = await run(process.execPath, ["run.mjs"], {
      cwd: folder,
      env: { PATH: process.env.PATH ?? "", KEY: t.tenant.key, URL: t.url },
    });
    expect(JSON.parse(stdout)).toMatchObject({ project: t.tenant.projectId, code: "agent.not_found" });
  }, 120_000);
});
