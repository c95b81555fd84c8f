export interface SseMessage {
  id?: string;
  event?: string;
  data: string;
}

/**
 * Parses a Server-Sent Events byte stream into messages (comments such as heartbeats are skipped); `onChunk` is called
 * for every chunk read, heartbeats included.
 */
export async function* parseSse(
  body: ReadableStream<Uint8Array>,
  onChunk?: () => void,
): AsyncGenerator<SseMessage, void, undefined> {
  const decoder = new TextDecoder();
  let buffer = "";
  let message: { id?: string; event?: string; data: string[] } = { data: [] };
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      onChunk?.();
      buffer += decoder.decode(value, { stream: true });
      let newline = buffer.search(/\r?\n/);
      while (newline >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(buffer[newline] === "\r" ? newline + 2 : newline + 1);
        if (line === "") {
          if (message.data.length > 0) yield { id: message.id, event: message.event, data: message.data.join("\n") };
          message = { data: [] };
        } else if (!line.startsWith(":")) {
          const colon = line.indexOf(":");
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
          if (field === "data") message.data.push(value);
          else if (field === "id") message.id = value;
          else if (field === "event") message.event = value;
        }
        newline = buffer.search(/\r?\n/);
      }
    }
  } finally {
    reader.releaseLock();
    await body.cancel().catch(() => {});
  }
}
