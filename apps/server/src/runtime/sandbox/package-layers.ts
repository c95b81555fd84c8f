import { createHash, randomUUID } from "node:crypto";
import { access, chown, mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SandboxSettings } from "./sandbox-settings.js";

export interface PackageLists {
  npm: string[];
  pip: string[];
}

/** Builds a layer in a sandbox with `/opt/packages` writable; resolves with the build's error text when it fails. */
export type LayerBuilder = (target: string, script: string, args: string[]) => Promise<string | null>;

export class PackageLayerError extends Error {}

/** The hosts a layer build may reach: the registry and the index (and PyPI's file host with the default index). */
export function packageHosts(settings: SandboxSettings): string[] {
  const hosts = [new URL(settings.npmRegistry).host, new URL(settings.pipIndexUrl).host];
  if (new URL(settings.pipIndexUrl).hostname === "pypi.org") hosts.push("files.pythonhosted.org");
  return [...new Set(hosts)];
}

/**
 * Installs an environment's packages once per distinct list (and registry) into a read-only layer mounted at
 * /opt/packages by every call: `npm install --prefix /opt/packages` (NODE_PATH and PATH point there) and
 * `pip install --target /opt/packages/python` (PYTHONPATH). A layer is built in a sandbox, in a folder of its own, and
 * becomes visible by an atomic rename only when complete; builds of the same list in one process are shared.
 */
export class PackageLayers {
  private readonly building = new Map<string, Promise<string>>();
  readonly builds: string[] = [];

  constructor(
    private readonly settings: SandboxSettings,
    private readonly build: LayerBuilder,
  ) {}

  key(lists: PackageLists): string {
    const normalized = {
      npm: [...lists.npm].sort(),
      pip: [...lists.pip].sort(),
      npmRegistry: this.settings.npmRegistry,
      pipIndexUrl: this.settings.pipIndexUrl,
    };
    return createHash("sha256").update(JSON.stringify(normalized)).digest("hex").slice(0, 24);
  }

  /** The host folder of the layer, built first when missing. */
  ensure(lists: PackageLists): Promise<string> {
    const key = this.key(lists);
    const dir = join(this.settings.root, "layers", key);
    let pending = this.building.get(key);
    if (!pending) {
      pending = access(join(dir, ".complete"))
        .then(
          () => dir,
          () => this.buildLayer(key, dir, lists),
        )
        .finally(() => this.building.delete(key));
      this.building.set(key, pending);
    }
    return pending;
  }

  private async buildLayer(key: string, dir: string, lists: PackageLists): Promise<string> {
    const layers = join(this.settings.root, "layers");
    await mkdir(layers, { recursive: true, mode: 0o711 });
    const tmp = join(layers, `${key}.building-${randomUUID()}`);
    await mkdir(tmp, { mode: 0o755 });
    await chown(tmp, this.settings.uid, this.settings.gid);
    this.builds.push(key);
    const steps: string[] = ["set -e"];
    const args: string[] = [];
    if (lists.npm.length > 0) {
      steps.push(
        "npm install --prefix /opt/packages --no-audit --no-fund --no-update-notifier --loglevel=error " +
          `--registry "${this.settings.npmRegistry}" "\${@:1:${lists.npm.length}}"`,
      );
      args.push(...lists.npm);
    }
    if (lists.pip.length > 0) {
      steps.push(
        "python3 -m pip install --quiet --disable-pip-version-check --no-cache-dir --target /opt/packages/python " +
          `--index-url "${this.settings.pipIndexUrl}" "\${@:${lists.npm.length + 1}}"`,
      );
      args.push(...lists.pip);
    }
    const failure = await this.build(tmp, steps.join("\n"), args);
    if (failure !== null) {
      await rm(tmp, { recursive: true, force: true });
      throw new PackageLayerError(`Installing the environment's packages failed: ${failure}`);
    }
    await writeFile(join(tmp, ".complete"), new Date().toISOString());
    await rename(tmp, dir).catch(async () => {
      // Another process finished the same layer first: keep theirs.
      await rm(tmp, { recursive: true, force: true });
    });
    return dir;
  }
}
