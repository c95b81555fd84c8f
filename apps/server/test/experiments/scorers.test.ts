import type { Scorer } from "@agent-platform/contract";
import { describe, expect, it } from "vitest";
import { parseJudgeReply } from "../../src/scoring/judge-prompt.js";
import { regexProblem } from "../../src/scoring/regex.js";
import { type Judge, ScoringFailed, scoreOutput } from "../../src/scoring/score-output.js";

const noJudge: Judge = async () => {
  throw new Error("no judge in this test");
};

async function score(scorer: Scorer, output: string, expected: string | null = null) {
  const [result] = await scoreOutput([scorer], { input: "question", expected, output }, noJudge);
  return result!;
}

describe("contains", () => {
  it("is case-insensitive by default and case-sensitive when asked", async () => {
    expect(await score({ type: "contains", value: "Paris" }, "it is PARIS.")).toMatchObject({ score: 1, passed: true });
    const sensitive = await score({ type: "contains", value: "Paris", caseSensitive: true }, "it is PARIS.");
    expect(sensitive).toMatchObject({ score: 0, passed: false, reason: expect.stringContaining('"Paris"') });
  });
});

describe("exact_match", () => {
  it("trims and compares case by default, with each option", async () => {
    expect(await score({ type: "exact_match" }, "  Paris\n", "Paris")).toMatchObject({ passed: true, reason: null });
    expect(await score({ type: "exact_match" }, "paris", "Paris")).toMatchObject({ passed: false, score: 0 });
    expect(await score({ type: "exact_match", caseSensitive: false }, "paris", "Paris")).toMatchObject({
      passed: true,
    });
    expect(await score({ type: "exact_match", trim: false }, " Paris", "Paris")).toMatchObject({ passed: false });
  });

  it("fails a case without an expected output, saying so", async () => {
    expect(await score({ type: "exact_match" }, "Paris", null)).toMatchObject({
      passed: false,
      reason: "the case has no expected output",
    });
  });
});

describe("regex", () => {
  it("matches anywhere, with flags i, m and s", async () => {
    expect(await score({ type: "regex", pattern: "\\d{3}" }, "code 123 ok")).toMatchObject({ passed: true });
    expect(await score({ type: "regex", pattern: "^ok$" }, "first\nok")).toMatchObject({ passed: false });
    expect(await score({ type: "regex", pattern: "^ok$", flags: "m" }, "first\nok")).toMatchObject({ passed: true });
    expect(await score({ type: "regex", pattern: "OK" }, "ok")).toMatchObject({ passed: false });
    expect(await score({ type: "regex", pattern: "OK", flags: "i" }, "ok")).toMatchObject({ passed: true });
    expect(await score({ type: "regex", pattern: "a.b" }, "a\nb")).toMatchObject({ passed: false });
    expect(await score({ type: "regex", pattern: "a.b", flags: "s" }, "a\nb")).toMatchObject({ passed: true });
  });

  it("runs a catastrophic pattern in linear time (a backtracking engine would not finish)", async () => {
    const evil = { type: "regex", pattern: "^(a+)+$" } as const;
    expect(await score(evil, `${"a".repeat(50_000)}b`)).toMatchObject({ passed: false });
    expect(await score({ type: "regex", pattern: "(x+x+)+y" }, "x".repeat(50_000))).toMatchObject({ passed: false });
  });

  it("refuses what RE2 cannot run, with its reason", () => {
    expect(regexProblem("(?=a)b")).toMatch(/unsupported/);
    expect(regexProblem("(\\w)\\1")).toMatch(/escape|backreference|invalid/i);
    expect(regexProblem("(a")).toMatch(/missing closing \)/);
    expect(regexProblem("a+", "i")).toBeNull();
  });
});

describe("json_valid and not_empty", () => {
  it("scores JSON validity and emptiness", async () => {
    expect(await score({ type: "json_valid" }, '{"a": [1, 2]}')).toMatchObject({ passed: true });
    expect(await score({ type: "json_valid" }, "{a: 1}")).toMatchObject({ passed: false, reason: /not valid JSON/ });
    expect(await score({ type: "not_empty" }, " x ")).toMatchObject({ passed: true });
    expect(await score({ type: "not_empty" }, " \n\t")).toMatchObject({ passed: false, reason: "the output is empty" });
  });
});

describe("llm_judge", () => {
  it("asks the judge with the rubric, the input, the reference and the answer, and reads its verdict", async () => {
    const asked: { model: string | undefined; message: string }[] = [];
    const judge: Judge = async (request) => {
      asked.push(request);
      return { text: '```json\n{"score": 0.75, "reason": "mostly right"}\n```' };
    };
    const scorer: Scorer = { type: "llm_judge", rubric: "Names the capital", model: "openai-compatible/judge" };
    const [result] = await scoreOutput(
      [scorer],
      { input: "Capital of France?", expected: "Paris", output: "Paris" },
      judge,
    );
    expect(result).toEqual({ type: "llm_judge", score: 0.75, passed: true, reason: "mostly right" });
    expect(asked[0]!.model).toBe("openai-compatible/judge");
    expect(asked[0]!.message).toContain("Names the capital");
    expect(asked[0]!.message).toContain("Capital of France?");
    expect(asked[0]!.message).toContain("Reference answer:\nParis");
  });

  it("fails the scoring when the verdict cannot be read, never guessing a score", async () => {
    const judge: Judge = async () => ({ text: "I think it deserves 8/10" });
    await expect(
      scoreOutput([{ type: "llm_judge" }], { input: "q", expected: null, output: "a" }, judge),
    ).rejects.toThrow(ScoringFailed);
  });

  it("parses only a JSON object with a score in [0, 1] and a string reason", () => {
    expect(parseJudgeReply('{"score": 0, "reason": "wrong"}')).toEqual({ ok: true, score: 0, reason: "wrong" });
    expect(parseJudgeReply('{"score": 1.5, "reason": "x"}')).toMatchObject({ ok: false, problem: /0 to 1/ });
    expect(parseJudgeReply('{"score": "1", "reason": "x"}')).toMatchObject({ ok: false });
    expect(parseJudgeReply('{"score": 1}')).toMatchObject({ ok: false, problem: /reason/ });
    expect(parseJudgeReply("[1]")).toMatchObject({ ok: false, problem: /not a JSON object/ });
    expect(parseJudgeReply("")).toMatchObject({ ok: false, problem: /empty answer/ });
  });
});
