import { describe, expect, it } from "vitest";
import { type ConversationMedia, toModelMessages } from "../../src/models/messages.js";
import { toolResultImagePlacement } from "../../src/models/tool-result-media.js";
import { withToolResultImages } from "../../src/runtime/loop/tool-result-images.js";

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

  it("notes an image shown in the message after the tool results", () => {
    expect(toolOutput([{ ...image, shownAfter: true }])).toEqual({
      type: "text",
      value:
        "text\n[image image/png, 2.0 KiB, stored as session artifact art_img; shown in the message after the tool results]",
    });
  });

  it("says where each model is shown which images of tool results", () => {
    const vision = { images: true };
    expect(toolResultImagePlacement({ provider: "anthropic" }, "image/png")).toBe("tool_result");
    expect(toolResultImagePlacement({ provider: "openai" }, "image/JPEG")).toBe("tool_result");
    expect(toolResultImagePlacement({ provider: "openai", capabilities: { images: false } }, "image/png")).toBe(null);
    expect(toolResultImagePlacement({ provider: "anthropic" }, "image/svg+xml")).toBe(null);
    expect(toolResultImagePlacement({ provider: "openai-compatible" }, "image/png")).toBe(null);
    expect(toolResultImagePlacement({ provider: "openai-compatible", capabilities: vision }, "image/png")).toBe(
      "user_message",
    );
    expect(toolResultImagePlacement({ provider: "openai-compatible", capabilities: vision }, "image/bmp")).toBe(null);
    expect(toolResultImagePlacement({ provider: "builtin", capabilities: vision }, "image/png")).toBe(null);
  });
});

describe("tool-result images chosen for a model call", () => {
  // No image to read here, so the pool is never queried.
  const noPool = {} as Parameters<typeof withToolResultImages>[0];
  const svg: ConversationMedia = { type: "image", mimeType: "image/svg+xml", artifactId: "art_svg", bytes: 10 };
  const big: ConversationMedia = { type: "image", mimeType: "image/png", artifactId: "art_big", bytes: 6 << 20 };
  const conversation = [
    {
      role: "tool" as const,
      results: [{ toolCallId: "c", toolName: "s__t", output: "x", isError: false, media: [svg, big] }],
    },
  ];

  it("says why an image of a type the model does not take, or too large, is not shown", async () => {
    const [message] = await withToolResultImages(noPool, "sess", { provider: "anthropic" }, conversation);
    expect(message!.role === "tool" && message!.results[0]!.media).toEqual([
      { ...svg, notShown: "this model does not take image/svg+xml images" },
      { ...big, notShown: "larger than the 5 MiB shown to models" },
    ]);
  });

  it("leaves the conversation as is for a model that takes no images", async () => {
    const model = { provider: "openai-compatible" as const };
    expect(await withToolResultImages(noPool, "sess", model, conversation)).toBe(conversation);
  });
});
