import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { ModelCatalogue, modelCatalogueOf, readCatalogueOverrides } from "../../src/models/catalogue.js";
import { parseModelSpec } from "../../src/models/model-spec.js";

function spec(reference: unknown) {
  const parsed = parseModelSpec(reference);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.spec;
}

describe("the model catalogue", () => {
  it("knows the windows, output caps, prices and capabilities of the providers' models", () => {
    const catalogue = new ModelCatalogue();
    expect(catalogue.resolve(spec("anthropic/claude-sonnet-4-5"))).toMatchObject({
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
      pricing: { input: 3, output: 15, cachedInputRead: 0.3, cachedInputWrite: 3.75 },
      capabilities: { tools: true, images: true, reasoning: true, promptCaching: true },
    });
    expect(catalogue.resolve(spec("openai/gpt-4o-mini")).contextWindow).toBe(128_000);
    expect(catalogue.resolve(spec("openai-compatible/local"))).toEqual({ name: "openai-compatible/local" });
  });

  it("takes what the agent's model object says over the catalogue", () => {
    const catalogue = new ModelCatalogue();
    const resolved = catalogue.resolve(
      spec({ id: "openai-compatible/local", contextWindow: 32_768, pricing: { input: 0.1, output: 0.2 } }),
    );
    expect(resolved).toMatchObject({ contextWindow: 32_768, pricing: { input: 0.1, output: 0.2 } });
    expect(catalogue.estimateCostUsd(resolved.pricing, { inputTokens: 1_000_000, outputTokens: 0 })).toBeCloseTo(0.1);
    expect(parseModelSpec({ id: "openai/gpt-5", contextWindow: 10 }).ok).toBe(false);
    expect(parseModelSpec({ id: "openai/gpt-5", pricing: { input: -1, output: 1 } }).ok).toBe(false);
  });

  it("adds and overrides entries from MODEL_CATALOGUE_FILE, then MODEL_CATALOGUE", () => {
    const file = join(mkdtempSync(join(tmpdir(), "catalogue-")), "models.json");
    writeFileSync(file, JSON.stringify({ "openai-compatible/qwen": { contextWindow: 8_192, maxOutputTokens: 1_000 } }));
    const env = {
      MODEL_CATALOGUE_FILE: file,
      MODEL_CATALOGUE: JSON.stringify({
        "openai-compatible/qwen": { contextWindow: 16_384 },
        "openai/gpt-4o": { pricing: { input: 1, output: 2 } },
      }),
    };
    const catalogue = modelCatalogueOf(env);
    expect(catalogue.lookup("openai-compatible/qwen")).toMatchObject({ contextWindow: 16_384, maxOutputTokens: 1_000 });
    expect(catalogue.lookup("openai/gpt-4o")).toMatchObject({
      contextWindow: 128_000,
      pricing: { input: 1, output: 2 },
    });
  });

  it("refuses a malformed deployment catalogue at start, naming the variable", () => {
    expect(() => readCatalogueOverrides({ MODEL_CATALOGUE: "{" })).toThrow(/MODEL_CATALOGUE is not valid JSON/);
    expect(() => loadConfig({ MODEL_CATALOGUE: JSON.stringify({ "openai/x": { contextWindow: "big" } }) })).toThrow(
      /MODEL_CATALOGUE: openai\/x.contextWindow/,
    );
  });
});
