import { describe, expect, it } from "vitest";
import { formatModelSpec, parseModelSpec } from "../../src/models/model-spec.js";

describe("parseModelSpec", () => {
  it.each([
    ["anthropic/claude-sonnet-4-5", { provider: "anthropic", modelId: "claude-sonnet-4-5" }],
    ["openai/gpt-5", { provider: "openai", modelId: "gpt-5" }],
    ["openai-compatible/llama3.1", { provider: "openai-compatible", modelId: "llama3.1" }],
    ["openai-compatible/meta-llama/llama-3-70b", { provider: "openai-compatible", modelId: "meta-llama/llama-3-70b" }],
    ["builtin/echo", { provider: "builtin", modelId: "echo" }],
    [{ id: "openai/gpt-5" }, { provider: "openai", modelId: "gpt-5" }],
    [
      { id: "claude-sonnet-4-5", provider: "anthropic", temperature: 0.2, maxOutputTokens: 1024 },
      { provider: "anthropic", modelId: "claude-sonnet-4-5", temperature: 0.2, maxOutputTokens: 1024 },
    ],
    [
      { id: "builtin/echo", temperature: 0 },
      { provider: "builtin", modelId: "echo", temperature: 0 },
    ],
    [
      { id: "qwen/qwen3", provider: "openai-compatible" },
      { provider: "openai-compatible", modelId: "qwen/qwen3" },
    ],
    [
      { id: "openai-compatible/qwen2.5-vl", capabilities: { images: true } },
      { provider: "openai-compatible", modelId: "qwen2.5-vl", capabilities: { images: true } },
    ],
  ])("accepts %j", (reference, spec) => {
    expect(parseModelSpec(reference)).toEqual({ ok: true, spec });
  });

  it.each([
    ["mistral/large", "model.unknown_provider"],
    [{ id: "large", provider: "mistral" }, "model.unknown_provider"],
    [{ id: "mistral/large" }, "model.unknown_provider"],
    ["builtin/parrot", "model.unknown_model"],
    ["gpt-5", "model.malformed"],
    ["/gpt-5", "model.malformed"],
    ["openai/", "model.malformed"],
    ["openai/ gpt-5", "model.malformed"],
    ["openai/gpt 5", "model.malformed"],
    ["", "model.malformed"],
    [42, "model.malformed"],
    [null, "model.malformed"],
    [["openai/gpt-5"], "model.malformed"],
    [{}, "model.malformed"],
    [{ id: "gpt-5" }, "model.malformed"],
    [{ id: "openai/gpt-5", provider: "openai" }, "model.malformed"],
    [{ id: "gpt-5", provider: 3 }, "model.malformed"],
    [{ id: "openai/gpt-5", temperature: -0.1 }, "model.malformed"],
    [{ id: "openai/gpt-5", temperature: 2.5 }, "model.malformed"],
    [{ id: "openai/gpt-5", temperature: "hot" }, "model.malformed"],
    [{ id: "openai/gpt-5", maxOutputTokens: 0 }, "model.malformed"],
    [{ id: "openai/gpt-5", maxOutputTokens: 1.5 }, "model.malformed"],
    [{ id: "openai/gpt-5", max_tokens: 100 }, "model.malformed"],
    [{ id: "openai/gpt-5", capabilities: { images: "yes" } }, "model.malformed"],
    [{ id: "openai/gpt-5", capabilities: { audio: true } }, "model.malformed"],
  ])("rejects %j with %s", (reference, code) => {
    const result = parseModelSpec(reference);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe(code);
      expect(result.error.message.length).toBeGreaterThan(0);
    }
  });

  it("names the unknown provider and the known ones", () => {
    const result = parseModelSpec("mistral/large");
    expect(result.ok ? "" : result.error.message).toMatch(/"mistral".*anthropic, openai, openai-compatible, builtin/);
  });

  it("formats a spec back to its string form", () => {
    expect(formatModelSpec({ provider: "openai-compatible", modelId: "meta-llama/llama-3" })).toBe(
      "openai-compatible/meta-llama/llama-3",
    );
  });
});
