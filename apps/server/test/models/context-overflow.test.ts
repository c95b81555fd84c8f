import { APICallError } from "ai";
import { describe, expect, it } from "vitest";
import { classifyProviderError } from "../../src/models/classify-provider-error.js";
import { overflowReply } from "../support/fake-openai.js";

function refusal(status: number, body: unknown, message: string): APICallError {
  return new APICallError({
    message,
    url: "https://provider.example/v1",
    requestBodyValues: {},
    statusCode: status,
    responseBody: JSON.stringify(body),
    isRetryable: false,
  });
}

describe("a provider's refusal of a prompt over the window", () => {
  it("is recognised in Anthropic's words, with the window it names", () => {
    const body = {
      type: "error",
      error: { type: "invalid_request_error", message: "prompt is too long: 208310 tokens > 200000 maximum" },
    };
    const classified = classifyProviderError(refusal(400, body, body.error.message));
    expect(classified).toMatchObject({ code: "model.context_overflow", status: 400, contextWindow: 200_000 });
    expect(classified.retryable).toBe(false);
  });

  for (const style of ["openai", "vllm", "litellm", "ollama"] as const) {
    it(`is recognised in ${style}'s words`, () => {
      const reply = overflowReply(style, 32_768, 40_000);
      const classified = classifyProviderError(refusal(reply.status, reply.body, "Bad Request"));
      expect(classified.code).toBe("model.context_overflow");
      if (style !== "ollama") expect(classified.contextWindow).toBe(32_768);
    });
  }

  it("leaves other 400s as provider errors", () => {
    const body = { error: { message: "Invalid 'messages[1].role'", type: "invalid_request_error", code: null } };
    expect(classifyProviderError(refusal(400, body, "Invalid role")).code).toBe("model.provider_error");
  });
});
