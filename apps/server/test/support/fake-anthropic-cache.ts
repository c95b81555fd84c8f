import { createHash } from "node:crypto";

/**
 * The prompt cache of the Anthropic fake, as the Messages API documents it: only prefixes ending at a block marked
 * `cache_control` are written (at most 4 markers, else 400); a prefix shorter than the model's minimum cacheable
 * length is not cached; a request reads the longest cached prefix that ends at one of its block boundaries within the
 * 20 blocks before a marker. The order is tools, system, messages; the markers themselves are not part of a prefix.
 * Tokens are counted as the fake counts them (`fake-tokenizer.ts`); tool definitions are left out of the prefixes.
 */
export class FakePromptCache {
  private readonly prefixes = new Set<string>();

  constructor(private readonly minCacheableTokens: number) {}

  /** Cache read and written tokens of a request (of its `prompt` tokens), or an error message for a 400. */
  account(
    // biome-ignore lint/suspicious/noExplicitAny: a Messages API body as sent
    body: any,
    wordsOf: (value: unknown) => number,
  ): { read: number; written: number } | { error: string } {
    const blocks: { key: unknown; words: number; marked: boolean }[] = [];
    const add = (block: unknown, role: string) => {
      const { cache_control: marker, ...rest } = (typeof block === "object" && block !== null ? block : {}) as Record<
        string,
        unknown
      >;
      const key = typeof block === "string" ? block : rest;
      const words = typeof block === "string" ? wordsOf(block) : wordsOf(rest);
      blocks.push({ key: [role, key], words: role === "tool" ? 0 : words, marked: marker !== undefined });
    };
    for (const tool of body?.tools ?? []) add(tool, "tool");
    if (typeof body?.system === "string") add(body.system, "system");
    else for (const block of body?.system ?? []) add(block, "system");
    for (const message of body?.messages ?? []) {
      if (typeof message.content === "string") add(message.content, message.role);
      else for (const block of message.content ?? []) add(block, message.role);
    }
    const markers = blocks.flatMap((block, i) => (block.marked ? [i] : []));
    if (markers.length > 4) {
      return { error: `A maximum of 4 blocks with cache_control may be provided. Found ${markers.length}.` };
    }
    const keys: string[] = [];
    const upTo: number[] = [];
    const hash = createHash("sha256").update(String(body?.model));
    let words = 0;
    for (const block of blocks) {
      hash.update(JSON.stringify(block.key));
      keys.push(hash.copy().digest("hex"));
      words += block.words;
      upTo.push(words);
    }
    let readAt = -1;
    for (const marker of [...markers].reverse()) {
      for (let i = marker; i >= Math.max(0, marker - 20) && i > readAt; i--) {
        if (this.prefixes.has(keys[i]!)) {
          readAt = i;
          break;
        }
      }
    }
    const read = readAt >= 0 ? upTo[readAt]! : 0;
    let written = 0;
    for (const marker of markers) {
      if (upTo[marker]! < this.minCacheableTokens || marker <= readAt) continue;
      this.prefixes.add(keys[marker]!);
      written = upTo[marker]! - read;
    }
    return { read, written };
  }
}
