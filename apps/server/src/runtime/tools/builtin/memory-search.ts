import { LIMITS } from "@agent-platform/contract";
import { z } from "zod";
import { searchMemoryHybrid } from "../../../memory-stores/index.js";
import { defineBuiltinTool } from "../define-tool.js";
import { fail, json } from "../tool-result.js";
import type { MemoryMount, RuntimeTool } from "../types.js";
import { describeMounts, findMount, storeProperty } from "./memory-mounts.js";

const Input = z
  .object({
    query: z.string().trim().min(1).max(1000),
    store: z.string().min(1).max(200).optional(),
    limit: z.number().int().min(1).max(LIMITS.memorySearchResults).optional(),
    mode: z.enum(["hybrid", "semantic", "fulltext"]).optional(),
  })
  .strict();

export function memorySearchTool(mounts: readonly MemoryMount[]): RuntimeTool {
  return defineBuiltinTool({
    name: "memory_search",
    description:
      "Search mounted memory stores for entries about the query: by meaning and by words (entries whose key or " +
      "content contains every word), best first. Returns keys with a snippet; read an entry with memory_read. " +
      `Mounted: ${describeMounts(mounts)}.`,
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", description: "What to look for: a question, a topic or words" },
        mode: {
          type: "string",
          enum: ["hybrid", "semantic", "fulltext"],
          description: "`hybrid` (default): meaning and words; `semantic`: meaning only; `fulltext`: every word",
        },
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
      const notes: string[] = [];
      for (const mount of targets) {
        const found = await searchMemoryHybrid(run.ctx, {
          storeId: mount.memoryStoreId,
          query: input.query,
          limit: input.limit ?? 10,
          mode: input.mode ?? "hybrid",
          agentId: run.session.agentId,
          signal: run.signal,
        });
        if (found.retrievers.semantic?.error)
          notes.push(`${mount.memoryStoreName}: searched by words only (${found.retrievers.semantic.error})`);
        for (const hit of found.data) {
          results.push({
            store: mount.memoryStoreName,
            key: hit.key,
            snippet: hit.snippet,
            bytes: hit.bytes,
            score: Number(hit.score.toFixed(4)),
            foundBy: Object.keys(hit.foundBy),
            updatedAt: hit.updatedAt,
          });
        }
      }
      const note = notes.length ? { note: notes.join("; ") } : {};
      if (results.length === 0) return json({ results, note: notes.join("; ") || "No entry matches the query" });
      return json({ results, ...note });
    },
  });
}
