import type { MemoryMount } from "../types.js";

/** How the memory tools describe the mounts to the model. */
export function describeMounts(mounts: readonly MemoryMount[]): string {
  return mounts.map((m) => `\`${m.memoryStoreName}\` (${m.mode})`).join(", ");
}

export type MountLookup = { ok: true; mount: MemoryMount } | { ok: false; message: string };

/**
 * The mount a call addresses: by store name (or id). `store` may be left out when exactly one store is mounted.
 */
export function findMount(mounts: readonly MemoryMount[], store: string | undefined): MountLookup {
  if (store === undefined) {
    if (mounts.length === 1) return { ok: true, mount: mounts[0]! };
    return {
      ok: false,
      message: `Several memory stores are mounted: name one in \`store\` (${describeMounts(mounts)})`,
    };
  }
  const mount =
    mounts.find((m) => m.memoryStoreName === store) ??
    mounts.find((m) => m.memoryStoreId === store) ??
    mounts.find((m) => m.memoryStoreName.toLowerCase() === store.toLowerCase());
  if (!mount) {
    return {
      ok: false,
      message: `No memory store "${store}" is mounted in this session (mounted: ${describeMounts(mounts)})`,
    };
  }
  return { ok: true, mount };
}

export function storeProperty(mounts: readonly MemoryMount[], purpose: string): Record<string, unknown> {
  return {
    type: "string",
    enum: mounts.map((m) => m.memoryStoreName),
    description: `${purpose}${mounts.length === 1 ? " (optional: only one store is mounted)" : ""}`,
  };
}

export const KEY_DESCRIPTION = "Path-like key, e.g. `notes/todo.md` (letters, digits, `.`, `_`, `-`, separated by `/`)";
