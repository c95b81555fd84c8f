// Declarations of the packed SDK, in dist/esm and dist/cjs alike: the SDK's own (tsc) plus, for the `contract` entry,
// the contract's, copied under <dir>/contract-types with the SDK's imports of `@agent-platform/contract` pointed
// there (the contract is bundled into the JS by tsup; its types must travel too). The root and `webhooks` entries'
// declarations import nothing of the contract: they are the named types generated in src/generated.
import { execFile } from "node:child_process";
import { cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const types = join(root, "dist", "types");
const contractOut = join(types, "contract-types");
// The compiler's own entry, run with this Node: no `.bin` shim needs to exist in this package.
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

rmSync(types, { recursive: true, force: true });
const run = (args) =>
  promisify(execFile)(process.execPath, [tsc, ...args], { cwd: root }).catch((error) => {
    process.stdout.write(error.stdout ?? "");
    throw error;
  });
// Both at once: they are independent, and each takes most of the build's time.
await Promise.all([
  run(["-p", "tsconfig.types.json", "--outDir", types]),
  run([
    ...["-p", join(root, "..", "contract", "tsconfig.build.json")],
    ...["--emitDeclarationOnly", "--declarationMap", "false", "--outDir", contractOut],
  ]),
]);

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

for (const file of files(types)) {
  if (!file.endsWith(".d.ts") || file.startsWith(contractOut + sep)) continue;
  const text = readFileSync(file, "utf8");
  let target = relative(dirname(file), join(contractOut, "index.js")).split(sep).join("/");
  if (!target.startsWith(".")) target = `./${target}`;
  const rewritten = text.replaceAll(/(["'])@agent-platform\/contract\1/g, `"${target}"`);
  if (rewritten !== text) writeFileSync(file, rewritten);
}

for (const [dir, type] of [
  ["esm", "module"],
  ["cjs", "commonjs"],
]) {
  cpSync(types, join(root, "dist", dir), { recursive: true });
  writeFileSync(join(root, "dist", dir, "package.json"), `${JSON.stringify({ type }, null, 2)}\n`);
}
rmSync(types, { recursive: true, force: true });
