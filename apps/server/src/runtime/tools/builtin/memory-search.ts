import { LIMITS } from "@agent-platform/contract";
import { z } from "zod";
import { searchMemory } from "../../../memory-stores/index.js";
import { defineBuiltinTool } from "../define-tool.js";
import { fail, json } from "../tool-result.js";
import type { MemoryMount, RuntimeTool } from "../types.js";
import { describeMounts, findMount, storeProperty } from "./memory-mounts.js";

const Input = z
  .object({
    query: z.string().trim().min(1).max(1000),
    store: z.string().min(1).max(200).optional(),
    limit: z.number().int().min(1).max(LIMITS.memorySearchResults).optional(),
  })
  .strict();

export function memorySearchTool(mounts: readonly MemoryMount[]): RuntimeTool {
  return defineBuiltinTool({
    name: "memory_search",
    description:
      "Search mounted memory stores for entries whose key or content contains every word of the query " +
      `(case-insensitive). Returns keys with a snippet; read an entry with memory_read. Mounted: ${describeMounts(mounts)}.`,
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", description: "Words that must all appear in the key or content" },
        store: storeProperty(mounts, "Search only this store; all mounted stores when omitted"),
        limit: {
          type: "integer",
          minimum: 1,
          maximum: LIMITS.memorySearchResults,
          description: "At most this many results per store (default 10)",
        },
      },
      required: ["query"],
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
      const results = [];
      for (const mount of targets) {
        const hits = await searchMemory(run.ctx.db.prisma, mount.memoryStoreId, input.query, input.limit ?? 10);
        for (const hit of hits) {
          results.push({
            store: mount.memoryStoreName,
            key: hit.key,
            snippet: hit.snippet,
            bytes: hit.bytes,
            updatedAt: hit.updatedAt.toISOString(),
          });
        }
      }
      if (results.length === 0) return json({ results, note: "No entry matches every word of the query" });
      return json({ results });
    },
  });
}
