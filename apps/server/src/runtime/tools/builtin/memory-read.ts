import { z } from "zod";
import { readMemory } from "../../../memory-stores/index.js";
import { defineBuiltinTool } from "../define-tool.js";
import { fail, ok } from "../tool-result.js";
import type { MemoryMount, RuntimeTool } from "../types.js";
import { describeMounts, findMount, KEY_DESCRIPTION, storeProperty } from "./memory-mounts.js";

const Input = z.object({ store: z.string().min(1).max(200).optional(), key: z.string().min(1).max(1024) }).strict();

export function memoryReadTool(mounts: readonly MemoryMount[]): RuntimeTool {
  return defineBuiltinTool({
    name: "memory_read",
    description: `Read the full content of one memory entry by key. Mounted stores: ${describeMounts(mounts)}.`,
    inputSchema: {
      type: "object",
      properties: {
        store: storeProperty(mounts, "Memory store holding the entry"),
        key: { type: "string", description: KEY_DESCRIPTION },
      },
      required: mounts.length === 1 ? ["key"] : ["store", "key"],
      additionalProperties: false,
    },
    input: Input,
    async run(input, run) {
      const found = findMount(mounts, input.store);
      if (!found.ok) return fail(found.message);
      const entry = await readMemory(run.ctx.db.prisma, found.mount.memoryStoreId, input.key);
      if (!entry) return fail(`No entry "${input.key}" in memory store "${found.mount.memoryStoreName}"`);
      return ok(entry.content);
    },
  });
}
