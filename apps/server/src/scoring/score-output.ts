import type { ExpectedToolCall, Score, Scorer } from "@agent-platform/contract";
import { JUDGE_SYSTEM, judgeMessage, parseJudgeReply } from "./judge-prompt.js";
import { compileScorerRegex } from "./regex.js";
import { type CaseRun, scoreRun } from "./run-scorers.js";

/** What a case is scored on. */
export interface ScoredCase {
  input: string;
  expected: string | null;
  output: string;
  /** What the task did: needed by `trajectory`, `call_count`, `cost` and `latency` (experiment cases have it). */
  run?: CaseRun;
  /** The case's expected tool calls (`trajectory`); null when the case has none. */
  expectedTools?: readonly ExpectedToolCall[] | null;
}

/** One judge call (the caller picks the model and counts the tokens). */
export type Judge = (request: {
  model: string | undefined;
  system: string;
  message: string;
}) => Promise<{ text: string }>;

/** A scorer that could not score (the judge's reply unreadable, the judge model failing): the case is an error. */
export class ScoringFailed extends Error {
  override readonly name = "ScoringFailed";
}

const PASS_THRESHOLD = 0.5;

/** Scores the output with every scorer, in order. Deterministic scorers are pure; `llm_judge` calls `judge`. */
export async function scoreOutput(scorers: readonly Scorer[], scored: ScoredCase, judge: Judge): Promise<Score[]> {
  const out: Score[] = [];
  for (const scorer of scorers) out.push(await scoreOne(scorer, scored, judge));
  return out;
}

async function scoreOne(scorer: Scorer, scored: ScoredCase, judge: Judge): Promise<Score> {
  const { input, expected, output } = scored;
  switch (scorer.type) {
    case "trajectory":
    case "call_count":
    case "cost":
    case "latency": {
      if (!scored.run) throw new ScoringFailed(`${scorer.type}: scores a task's run, and there is none here`);
      return scoreRun(scorer, scored.run, scored.expectedTools ?? null);
    }
    case "contains": {
      const sensitive = scorer.caseSensitive ?? false;
      const found = sensitive
        ? output.includes(scorer.value)
        : output.toLowerCase().includes(scorer.value.toLowerCase());
      return binary("contains", found, found ? null : `the output does not contain ${JSON.stringify(scorer.value)}`);
    }
    case "exact_match": {
      if (expected === null) return binary("exact_match", false, "the case has no expected output");
      const trim = scorer.trim ?? true;
      const sensitive = scorer.caseSensitive ?? true;
      const normal = (text: string) => {
        const trimmed = trim ? text.trim() : text;
        return sensitive ? trimmed : trimmed.toLowerCase();
      };
      const equal = normal(output) === normal(expected);
      return binary("exact_match", equal, equal ? null : "the output differs from the expected output");
    }
    case "regex": {
      const matched = compileScorerRegex(scorer.pattern, scorer.flags).test(output);
      return binary("regex", matched, matched ? null : `the output does not match /${scorer.pattern}/`);
    }
    case "json_valid": {
      try {
        JSON.parse(output);
        return binary("json_valid", true, null);
      } catch (error) {
        return binary("json_valid", false, `not valid JSON: ${error instanceof Error ? error.message : error}`);
      }
    }
    case "not_empty": {
      const filled = output.trim().length > 0;
      return binary("not_empty", filled, filled ? null : "the output is empty");
    }
    case "llm_judge": {
      const reply = await judge({
        model: scorer.model,
        system: JUDGE_SYSTEM,
        message: judgeMessage({ rubric: scorer.rubric, input, expected, output }),
      });
      const verdict = parseJudgeReply(reply.text);
      if (!verdict.ok) throw new ScoringFailed(`llm_judge: ${verdict.problem}`);
      return {
        type: "llm_judge",
        score: verdict.score,
        passed: verdict.score >= PASS_THRESHOLD,
        reason: verdict.reason,
      };
    }
  }
}

function binary(type: Score["type"], passed: boolean, reason: string | null): Score {
  return { type, score: passed ? 1 : 0, passed, reason };
}
