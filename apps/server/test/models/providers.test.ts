import { describe, expect, it } from "vitest";
import { ModelCallError } from "../../src/models/model-errors.js";
import type { ModelSpec } from "../../src/models/model-spec.js";
import { checkModelAvailable, createLanguageModel, readProviderSettings } from "../../src/models/providers.js";

describe("provider settings", () => {
  it("reads credentials and base URLs, ignoring blank values", () => {
    const settings = readProviderSettings({
      ANTHROPIC_API_KEY: " sk-ant ",
      ANTHROPIC_BASE_URL: "",
      OPENAI_API_KEY: "   ",
      OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:11434/v1",
    });
    expect(settings).toEqual({
      anthropic: { apiKey: "sk-ant" },
      openai: {},
      openaiCompatible: { baseURL: "http://127.0.0.1:11434/v1" },
    });
  });

  it.each([
    ["builtin", {}, null],
    ["anthropic", {}, /ANTHROPIC_API_KEY/],
    ["anthropic", { ANTHROPIC_API_KEY: "k" }, null],
    ["anthropic", { ANTHROPIC_BASE_URL: "http://proxy/v1" }, /ANTHROPIC_API_KEY/],
    ["openai", {}, /OPENAI_API_KEY/],
    ["openai", { OPENAI_API_KEY: "k" }, null],
    ["openai-compatible", { OPENAI_COMPATIBLE_API_KEY: "k" }, /OPENAI_COMPATIBLE_BASE_URL/],
    ["openai-compatible", { OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:1/v1" }, null],
  ] as const)("%s with %j → %s", (provider, env, expected) => {
    const reason = checkModelAvailable({ provider }, readProviderSettings(env));
    if (expected === null) expect(reason).toBeNull();
    else expect(reason).toMatch(expected);
  });

  it("refuses to create a model for an unconfigured provider", async () => {
    const spec: ModelSpec = { provider: "openai", modelId: "gpt-5" };
    await expect(createLanguageModel(spec, readProviderSettings({}))).rejects.toThrow(ModelCallError);
  });

  it("creates chat-completions models for openai-compatible", async () => {
    const settings = readProviderSettings({ OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:1/v1" });
    const model = await createLanguageModel({ provider: "openai-compatible", modelId: "m" }, settings);
    expect(model).toMatchObject({ modelId: "m", provider: "openai-compatible.chat" });
  });
});
