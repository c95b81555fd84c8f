import { LIMITS } from "@agent-platform/contract";
import { z } from "zod";
import { listMemory } from "../../../memory-stores/index.js";
import { defineBuiltinTool } from "../define-tool.js";
import { fail, json } from "../tool-result.js";
import type { MemoryMount, RuntimeTool } from "../types.js";
import { describeMounts, findMount, storeProperty } from "./memory-mounts.js";

const MAX_ENTRIES = 200;

const Input = z
  .object({
    store: z.string().min(1).max(200).optional(),
    prefix: z.string().min(1).max(LIMITS.memoryKeyLength).optional(),
    limit: z.number().int().min(1).max(MAX_ENTRIES).optional(),
  })
  .strict();

export function memoryListTool(mounts: readonly MemoryMount[]): RuntimeTool {
  return defineBuiltinTool({
    name: "memory_list",
    description:
      "List the keys (with sizes and update times) of a mounted memory store, optionally under a key prefix. " +
      `Without \`store\`, lists every mounted store. Mounted: ${describeMounts(mounts)}.`,
    inputSchema: {
      type: "object",
      properties: {
        store: storeProperty(mounts, "Memory store to list; all mounted stores when omitted"),
        prefix: { type: "string", description: "Only keys starting with this text, e.g. `notes/`" },
        limit: {
          type: "integer",
          minimum: 1,
          maximum: MAX_ENTRIES,
          description: "At most this many keys per store (default 100)",
        },
      },
      additionalProperties: false,
    },
    input: Input,
    async run(input, run) {
      let targets: readonly MemoryMount[] = mounts;
      if (input.store !== undefined) {
        const found = findMount(mounts, input.store);
        if (!found.ok) return fail(found.message);
        targets = [found.mount];
      }
      const limit = input.limit ?? 100;
      const stores = [];
      for (const mount of targets) {
        const entries = await listMemory(run.ctx.db.prisma, mount.memoryStoreId, {
          ...(input.prefix ? { prefix: input.prefix } : {}),
          limit: limit + 1,
        });
        stores.push({
          store: mount.memoryStoreName,
          mode: mount.mode,
          entries: entries
            .slice(0, limit)
            .map((e) => ({ key: e.key, bytes: e.bytes, updatedAt: e.updatedAt.toISOString() })),
          ...(entries.length > limit ? { more: true } : {}),
        });
      }
      return json({ stores });
    },
  });
}
