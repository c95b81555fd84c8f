/** Characters of an entry embedded with its key (about 2,000 tokens): a note's gist is at its start. */
export const MEMORY_EMBEDDED_CHARS = 8_000;

/** The text an entry is embedded as: its key (path words count) and the start of its content. */
export function memoryEmbeddingInput(key: string, content: string): string {
  return `${key.replace(/[/._-]+/g, " ")}\n\n${content.slice(0, MEMORY_EMBEDDED_CHARS)}`;
}
