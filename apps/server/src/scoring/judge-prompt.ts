/** The judge's instructions and the strict answer format of the `llm_judge` scorer. */

export const DEFAULT_RUBRIC = "The answer is correct, complete and helpful for the input.";

export const JUDGE_SYSTEM =
  "You grade answers. Read the rubric, the input, the reference answer when there is one, and the answer to grade. " +
  'Reply with one JSON object and nothing else: {"score": <number from 0 to 1>, "reason": "<one or two sentences>"}. ' +
  "1 means the answer fully meets the rubric, 0 that it does not at all.";

export function judgeMessage(input: {
  rubric?: string;
  input: string;
  expected: string | null;
  output: string;
}): string {
  const parts = [
    `Rubric:\n${input.rubric ?? DEFAULT_RUBRIC}`,
    `Input:\n${input.input}`,
    ...(input.expected !== null ? [`Reference answer:\n${input.expected}`] : []),
    `Answer to grade:\n${input.output}`,
  ];
  return parts.join("\n\n");
}

export type JudgeVerdict = { ok: true; score: number; reason: string } | { ok: false; problem: string };

/**
 * Reads the judge's reply: one JSON object with a numeric `score` in [0, 1] and a string `reason`. A reply wrapped in a
 * Markdown code fence is accepted; anything else is not a verdict (the case ends in error, never a guessed score).
 */
export function parseJudgeReply(text: string): JudgeVerdict {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/.exec(trimmed);
  const body = fenced ? fenced[1]! : trimmed;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { ok: false, problem: `the judge did not answer with JSON (got: ${preview(trimmed)})` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, problem: `the judge's answer is not a JSON object (got: ${preview(trimmed)})` };
  }
  const { score, reason } = value as { score?: unknown; reason?: unknown };
  if (typeof score !== "number" || !Number.isFinite(score) || score < 0 || score > 1) {
    return { ok: false, problem: `the judge's "score" is not a number from 0 to 1 (got: ${preview(trimmed)})` };
  }
  if (typeof reason !== "string") {
    return { ok: false, problem: `the judge's answer has no string "reason" (got: ${preview(trimmed)})` };
  }
  return { ok: true, score, reason };
}

function preview(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text || "an empty answer";
}
