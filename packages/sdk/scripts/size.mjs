// `pnpm sdk:size`: what an outside developer pays for the SDK, measured as they meet it.
//   - type-check time and peak memory of a one-line `import` of the packed SDK (tsc of this repository, strict,
//     nodenext) in an empty project outside the workspace, against an empty file as the baseline;
//   - gzip size of a one-call browser bundle (esbuild) and of `verifyWebhook` alone;
//   - with --first-start (as `pnpm bench` runs it): the time of the first `pnpm start` in a fresh clone of this
//     repository with a warm package store (install, then build and start until the banner prints).
// Targets (issue #31): < 3 s and < 400 MB, < 15 KB, < 10 KB, < 45 s. Prints a table; never fails on a missed target.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const sdkDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const repoDir = join(sdkDir, "..", "..");
const require = createRequire(join(sdkDir, "package.json"));
const tsc = require.resolve("typescript/bin/tsc");
const { build } = require("esbuild");
const quiet = { stdio: ["ignore", "pipe", "pipe"] };

const folder = mkdtempSync(join(tmpdir(), "ap-sdk-size-"));
// The embedded PostgreSQL of the first start runs as the `postgres` user, which must reach the clone.
chmodSync(folder, 0o755);
const rows = [];
try {
  if (!existsSync(join(sdkDir, "dist", "esm", "index.js")))
    execFileSync("pnpm", ["run", "build"], { cwd: sdkDir, ...quiet });
  execFileSync("pnpm", ["pack", "--pack-destination", folder], { cwd: sdkDir, ...quiet });
  const tarball = readdirSync(folder).find((f) => f.endsWith(".tgz"));
  writeFileSync(join(folder, "package.json"), JSON.stringify({ name: "size", private: true, type: "module" }));
  execFileSync("npm", ["install", `./${tarball}`, "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: folder,
    ...quiet,
  });

  const compilerOptions = {
    strict: true,
    module: "nodenext",
    target: "es2022",
    noEmit: true,
    types: [],
    skipLibCheck: false,
  };
  /** `tsc -p` of one file under /usr/bin/time: seconds and peak memory (time writes them to stderr, tsc to stdout). */
  const timed = (name, code) => {
    writeFileSync(join(folder, `${name}.ts`), code);
    writeFileSync(join(folder, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions, files: [`${name}.ts`] }));
    const args = ["-f", "%e %M", process.execPath, tsc, "-p", `tsconfig.${name}.json`];
    const result = spawnSync("/usr/bin/time", args, { cwd: folder, encoding: "utf8" });
    if (result.status !== 0) throw new Error(`tsc failed on ${name}.ts: ${result.stdout}${result.stderr}`);
    const [seconds, kb] = result.stderr.trim().split("\n").at(-1).split(" ").map(Number);
    return { seconds, mb: Math.round(kb / 1024) };
  };
  const empty = timed("empty", "export {};\n");
  const oneLine = timed(
    "one-line",
    'import { AgentPlatform } from "@agent-platform/sdk";\nexport const p = AgentPlatform;\n',
  );
  rows.push(["type-check, empty file (baseline)", `${empty.seconds} s, ${empty.mb} MB`, ""]);
  rows.push(["type-check, one-line import", `${oneLine.seconds} s, ${oneLine.mb} MB`, "< 3 s, < 400 MB"]);

  const gzip = async (contents) => {
    const result = await build({
      stdin: { contents, resolveDir: folder, loader: "ts" },
      bundle: true,
      minify: true,
      format: "esm",
      platform: "browser",
      write: false,
      logLevel: "silent",
    });
    return `${(gzipSync(result.outputFiles[0].contents).length / 1024).toFixed(1)} KB gzip`;
  };
  rows.push([
    "browser bundle, one call (agents.list)",
    await gzip(
      'import { AgentPlatform } from "@agent-platform/sdk";\nnew AgentPlatform({ apiKey: "k" }).agents.list();\n',
    ),
    "< 15 KB",
  ]);
  rows.push([
    "browser bundle, verifyWebhook alone",
    await gzip(
      'import { verifyWebhook } from "@agent-platform/sdk/webhooks";\nconsole.log(verifyWebhook("{}", {}, "k"));\n',
    ),
    "< 10 KB",
  ]);

  if (process.argv.includes("--first-start")) {
    const clone = join(folder, "clone");
    execFileSync("git", ["clone", "--quiet", repoDir, clone], quiet);
    const t0 = performance.now();
    execFileSync("pnpm", ["install", "--frozen-lockfile", "--prefer-offline"], { cwd: clone, ...quiet });
    const installed = performance.now();
    const started = await firstStart(clone);
    rows.push(["first start: pnpm install (warm store)", `${((installed - t0) / 1000).toFixed(1)} s`, ""]);
    rows.push(["first start: pnpm start until the banner", `${((started - installed) / 1000).toFixed(1)} s`, "< 45 s"]);
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}

/** Runs `pnpm start` in `dir` (its own process group) until it prints its banner; returns that moment. */
function firstStart(dir) {
  return new Promise((resolve, reject) => {
    const child = spawn("pnpm", ["start"], {
      cwd: dir,
      detached: true,
      env: { ...process.env, PORT: "0", LOG_LEVEL: "warn", TURBO_TELEMETRY_DISABLED: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    let bannerAt;
    child.stdout.on("data", (chunk) => {
      output += chunk;
      if (bannerAt !== undefined || !output.includes("Agent Platform is running")) return;
      bannerAt = performance.now();
      process.kill(-child.pid, "SIGINT");
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.once("exit", (code) => {
      if (bannerAt !== undefined) resolve(bannerAt);
      else reject(new Error(`pnpm start exited (${code}) before its banner:\n${output}`));
    });
  });
}

const width = Math.max(...rows.map((r) => r[0].length));
console.log("\nSDK as outside developers meet it (issue #31)");
for (const [what, value, target] of rows) console.log(`  ${what.padEnd(width)}  ${value.padEnd(18)} ${target}`);
