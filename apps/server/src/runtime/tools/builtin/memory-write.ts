import { z } from "zod";
import { writeMemory } from "../../../memory-stores/index.js";
import { defineBuiltinTool } from "../define-tool.js";
import { fail, ok } from "../tool-result.js";
import type { MemoryMount, RuntimeTool } from "../types.js";
import { describeMounts, findMount, KEY_DESCRIPTION, storeProperty } from "./memory-mounts.js";

const Input = z
  .object({ store: z.string().min(1).max(200).optional(), key: z.string().min(1).max(1024), content: z.string() })
  .strict();

/**
 * Offered only when at least one mount is read-write. The schema lists the writable stores only, and a call naming a
 * read-only mount is refused: the mode is enforced here, not trusted to the model.
 */
export function memoryWriteTool(mounts: readonly MemoryMount[]): RuntimeTool {
  const writable = mounts.filter((m) => m.mode === "read-write");
  return defineBuiltinTool({
    name: "memory_write",
    description:
      "Create or replace a memory entry (the whole content) in a read-write memory store. Entries persist across " +
      `sessions that mount the store. Writable stores: ${describeMounts(writable)}.`,
    inputSchema: {
      type: "object",
      properties: {
        store: storeProperty(writable, "Read-write memory store to write to"),
        key: { type: "string", description: KEY_DESCRIPTION },
        content: { type: "string", description: "The complete new content of the entry" },
      },
      required: writable.length === 1 ? ["key", "content"] : ["store", "key", "content"],
      additionalProperties: false,
    },
    input: Input,
    async run(input, run) {
      const found = findMount(input.store === undefined ? writable : mounts, input.store);
      if (!found.ok) return fail(found.message);
      const { mount } = found;
      if (mount.mode !== "read-write") {
        return fail(
          `Memory store "${mount.memoryStoreName}" is mounted read-only in this session: it cannot be written`,
        );
      }
      const entry = await writeMemory(run.ctx.db, mount.memoryStoreId, input.key, input.content);
      return ok(`Wrote "${entry.key}" in memory store "${mount.memoryStoreName}" (${entry.bytes} bytes).`);
    },
  });
}
