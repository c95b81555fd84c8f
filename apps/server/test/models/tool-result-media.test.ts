import { describe, expect, it } from "vitest";
import { type ConversationMedia, toModelMessages } from "../../src/models/messages.js";
import { acceptsImagesInToolResults } from "../../src/models/tool-result-media.js";

const image: ConversationMedia = { type: "image", mimeType: "image/png", artifactId: "art_img", bytes: 2048 };
const audio: ConversationMedia = { type: "audio", mimeType: "audio/wav", artifactId: "art_wav", bytes: 100 };

function toolOutput(media: ConversationMedia[], isError = false) {
  const [message] = toModelMessages([
    { role: "tool", results: [{ toolCallId: "c", toolName: "s__t", output: "text", isError, media }] },
  ]);
  return (message as { content: { output: unknown }[] }).content[0]!.output;
}

describe("media of tool results for the model", () => {
  it("sends an image with data as an image part after the text", () => {
    expect(toolOutput([{ ...image, data: "AAAA" }])).toEqual({
      type: "content",
      value: [
        { type: "text", text: "text" },
        { type: "image-data", data: "AAAA", mediaType: "image/png" },
      ],
    });
  });

  it("notes an image without data, audio, and the reason it is not shown", () => {
    expect(toolOutput([image, audio, { ...image, artifactId: "art_old", notShown: "too old" }])).toEqual({
      type: "text",
      value: [
        "text",
        "[image image/png, 2.0 KiB, stored as session artifact art_img; not shown: this model does not take images in tool results]",
        "[audio audio/wav, 100 B, stored as session artifact art_wav; not played: this model does not take audio in tool results]",
        "[image image/png, 2.0 KiB, stored as session artifact art_old; not shown: too old]",
      ].join("\n"),
    });
  });

  it("keeps an error result an error (with notes, no image parts)", () => {
    expect(toolOutput([{ ...image, data: "AAAA" }], true)).toMatchObject({ type: "error-text" });
  });

  it("says which providers take images in tool results", () => {
    expect(acceptsImagesInToolResults({ provider: "anthropic", modelId: "claude-sonnet-4-5" })).toBe(true);
    expect(acceptsImagesInToolResults({ provider: "openai", modelId: "gpt-5" })).toBe(true);
    expect(acceptsImagesInToolResults({ provider: "openai-compatible", modelId: "llama" })).toBe(false);
    expect(acceptsImagesInToolResults({ provider: "builtin", modelId: "echo" })).toBe(false);
  });
});
