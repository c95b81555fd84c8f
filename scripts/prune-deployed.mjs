// Prunes a `pnpm deploy --prod` folder (the container image's /app) of what the running server never loads:
// 1. packages reachable only as an optional peer dependency of another package: `@prisma/client` names the Prisma CLI
//    and TypeScript as optional peers, and pnpm installs them with their own dependencies (Prisma Studio, Effect,
//    PGlite, React: about 200 MB). The server uses the client generated at build time, never the CLI;
// 2. source maps, type declarations, and the Prisma query compilers the generated client does not import.
// Usage: node scripts/prune-deployed.mjs <deployed folder>. Prints what it removed.
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { join, relative } from "node:path";

const app = process.argv[2];
if (!app || !existsSync(join(app, "node_modules", ".pnpm"))) {
  console.error("usage: node scripts/prune-deployed.mjs <folder made by pnpm deploy>");
  process.exit(2);
}
const store = realpathSync(join(app, "node_modules", ".pnpm"));

/** The store entry (`node_modules/.pnpm/<entry>`) a resolved package folder lives in, if any. */
function storeEntry(dir) {
  const rel = relative(store, dir);
  return rel.startsWith("..") ? undefined : rel.split("/")[0];
}

function readManifest(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  } catch {
    return {};
  }
}

/** The packages linked in a node_modules folder: name → resolved folder. */
function linked(nodeModules) {
  const out = new Map();
  if (!existsSync(nodeModules)) return out;
  for (const name of readdirSync(nodeModules)) {
    if (name.startsWith(".")) continue;
    const names = name.startsWith("@") ? readdirSync(join(nodeModules, name)).map((sub) => `${name}/${sub}`) : [name];
    for (const full of names) {
      const path = join(nodeModules, full);
      if (lstatSync(path).isSymbolicLink() || lstatSync(path).isDirectory()) out.set(full, realpathSync(path));
    }
  }
  return out;
}

// Walk from the app's own dependencies. A package's neighbours are the links beside it in its store entry
// (`.pnpm/<entry>/node_modules/*`), minus its optional peers: an optional peer is the consumer's to provide.
const reached = new Set();
const queue = [...linked(join(app, "node_modules")).values()];
while (queue.length) {
  const dir = queue.pop();
  if (reached.has(dir)) continue;
  reached.add(dir);
  const manifest = readManifest(dir);
  const optionalPeers = new Set(
    Object.entries(manifest.peerDependenciesMeta ?? {})
      .filter(([, meta]) => meta?.optional)
      .map(([name]) => name),
  );
  const deps = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.optionalDependencies ?? {}),
  ]);
  const entry = storeEntry(dir);
  const siblings = entry ? linked(join(store, entry, "node_modules")) : linked(join(dir, "node_modules"));
  for (const [name, target] of siblings) {
    if (target === dir) continue;
    if (optionalPeers.has(name) && !deps.has(name)) continue;
    queue.push(target);
  }
}

const keep = new Set([...reached].map(storeEntry).filter(Boolean));
let removedEntries = 0;
for (const entry of readdirSync(store)) {
  if (entry === "node_modules" || entry.startsWith(".") || keep.has(entry)) continue;
  rmSync(join(store, entry), { recursive: true, force: true });
  removedEntries++;
}
// pnpm's hoisted links (`.pnpm/node_modules/*`) that now point nowhere.
const hoisted = join(store, "node_modules");
if (existsSync(hoisted)) {
  for (const name of readdirSync(hoisted)) {
    const names = name.startsWith("@") ? readdirSync(join(hoisted, name)).map((s) => `${name}/${s}`) : [name];
    for (const full of names) if (!existsSync(join(hoisted, full))) rmSync(join(hoisted, full), { force: true });
  }
}

// Prisma's query compilers the generated client imports (`query_compiler_small_bg.postgresql`: one build for one
// database, chosen in prisma/schema); the runtime folder holds ten.
const usedCompilers = new Set();
function findCompilers(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) findCompilers(path);
    else if (entry.name.endsWith(".js")) {
      for (const m of readFileSync(path, "utf8").matchAll(/query_compiler_\w+_bg\.\w+/g)) usedCompilers.add(m[0]);
    }
  }
}
findCompilers(realpathSync(join(app, "node_modules", "@agent-platform", "db", "dist")));
if (usedCompilers.size === 0) throw new Error("the generated Prisma client imports no query compiler: is db built?");

// Files no running process reads.
let removedFiles = 0;
function sweep(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) sweep(path);
    else if (
      /\.(map|d\.ts|d\.mts|d\.cts)$/.test(entry.name) ||
      (/^query_compiler_\w+_bg\.\w+\./.test(entry.name) &&
        !usedCompilers.has(entry.name.split(".").slice(0, 2).join(".")))
    ) {
      rmSync(path);
      removedFiles++;
    }
  }
}
sweep(app);
console.log(
  `pruned ${app}: ${removedEntries} packages reachable only as optional peers, ${removedFiles} files ` +
    `(kept the query compiler ${[...usedCompilers].join(", ")})`,
);
