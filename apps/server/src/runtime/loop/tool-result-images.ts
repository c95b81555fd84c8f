import type pg from "pg";
import { artifactData } from "../../artifacts/index.js";
import {
  type ConversationImage,
  type ConversationMedia,
  type ConversationMessage,
  type ImageTakingModel,
  toolResultImagePlacement,
} from "../../models/index.js";

/** Images of tool results a model call carries: the most recent ones, each at most the providers' common size limit. */
export const TOOL_RESULT_IMAGES = { perCall: 8, maxBytes: 5 * 1024 * 1024 } as const;

const TOO_MANY = `only the ${TOOL_RESULT_IMAGES.perCall} most recent images of tool results are shown`;
const TOO_LARGE = `larger than the ${TOOL_RESULT_IMAGES.maxBytes / (1024 * 1024)} MiB shown to models`;

/**
 * The conversation with the data of the tool-result images the model is to see (read from the session's artifacts),
 * and the reason for every other one. Images the model does not take (none, for some models; only some types, for the
 * others) stay as they are and become notes. A model that takes images only in user messages (Chat Completions) gets
 * each tool message's images in a user message right after it, and a note in the result saying so.
 */
export async function withToolResultImages(
  pool: pg.Pool,
  sessionId: string,
  model: ImageTakingModel,
  messages: ConversationMessage[],
): Promise<ConversationMessage[]> {
  const placement = toolResultImagePlacement(model, "image/png");
  // A model that takes no image at all gets the default note for each.
  if (!placement) return messages;
  const images: ConversationMedia[] = [];
  for (const message of messages) {
    if (message.role !== "tool") continue;
    for (const result of message.results) images.push(...(result.media ?? []).filter((m) => m.type === "image"));
  }
  if (images.length === 0) return messages;
  const small = images.filter(
    (m) => toolResultImagePlacement(model, m.mimeType) && m.bytes <= TOOL_RESULT_IMAGES.maxBytes,
  );
  const chosen = new Set(small.slice(-TOOL_RESULT_IMAGES.perCall).map((m) => m.artifactId));
  const data = await artifactData(pool, sessionId, [...chosen]);
  const withData = (media: ConversationMedia): ConversationMedia => {
    if (media.type !== "image") return media;
    if (!toolResultImagePlacement(model, media.mimeType)) {
      return { ...media, notShown: `this model does not take ${media.mimeType} images` };
    }
    const bytes = data.get(media.artifactId);
    if (bytes) return { ...media, data: bytes.toString("base64") };
    const reason = media.bytes > TOOL_RESULT_IMAGES.maxBytes ? TOO_LARGE : chosen.has(media.artifactId) ? "" : TOO_MANY;
    return { ...media, notShown: reason || "the artifact no longer exists" };
  };
  const out: ConversationMessage[] = [];
  for (const message of messages) {
    if (message.role !== "tool") {
      out.push(message);
      continue;
    }
    const results = message.results.map((r) => (r.media ? { ...r, media: r.media.map(withData) } : r));
    if (placement === "tool_result") {
      out.push({ ...message, results });
      continue;
    }
    // Chat Completions: the tool messages carry text only; their images follow in one user message.
    const shown: ConversationImage[] = [];
    const from: string[] = [];
    const moved = results.map((r) => {
      if (!r.media?.some((m) => m.data !== undefined)) return r;
      const media = r.media.map((m) => {
        if (m.data === undefined) return m;
        shown.push({ mimeType: m.mimeType, data: m.data });
        from.push(`${r.toolName} (${m.artifactId})`);
        const { data: _data, ...note } = m;
        return { ...note, shownAfter: true };
      });
      return { ...r, media };
    });
    out.push({ ...message, results: moved });
    if (shown.length > 0) {
      out.push({ role: "user", text: `[Images from the tool results above: ${from.join(", ")}]`, images: shown });
    }
  }
  return out;
}
