import { readFileSync } from "node:fs";
import type { GuardrailCheck } from "@agent-platform/contract";
import { type OfflineCheck, runOfflineCheck } from "../../src/guardrails/index.js";
import { fillSecrets } from "./secrets-generator.js";

interface Item {
  label: boolean;
  text: string;
}

/** The labelled sets of the offline checks, each measured with the check's defaults. */
export const LABELLED_SETS: { check: OfflineCheck; file: string }[] = [
  { check: { type: "prompt_injection" }, file: "prompt-injection.json" },
  { check: { type: "prompt_injection" }, file: "prompt-injection-held-out.json" },
  { check: { type: "pii" }, file: "pii.json" },
  { check: { type: "secrets" }, file: "secrets.json" },
];

export interface Measured {
  check: GuardrailCheck["type"];
  file: string;
  positives: number;
  negatives: number;
  precision: number;
  recall: number;
  /** Texts the check got wrong, for the docs' "what it misses" notes. */
  missed: string[];
  falseAlarms: string[];
}

export function measure(set: (typeof LABELLED_SETS)[number]): Measured {
  const items = (
    JSON.parse(readFileSync(new URL(`./labelled/${set.file}`, import.meta.url), "utf8")) as {
      items: Item[];
    }
  ).items;
  const fill = set.check.type === "secrets" ? fillSecrets : (text: string) => text;
  let tp = 0;
  let fp = 0;
  const missed: string[] = [];
  const falseAlarms: string[] = [];
  for (const item of items) {
    const triggered = runOfflineCheck(set.check, fill(item.text)).triggered;
    if (triggered && item.label) tp++;
    if (triggered && !item.label) {
      fp++;
      falseAlarms.push(item.text);
    }
    if (!triggered && item.label) missed.push(item.text);
  }
  const positives = items.filter((i) => i.label).length;
  return {
    check: set.check.type,
    file: set.file,
    positives,
    negatives: items.length - positives,
    precision: round(tp + fp === 0 ? 1 : tp / (tp + fp)),
    recall: round(positives === 0 ? 1 : tp / positives),
    missed,
    falseAlarms,
  };
}

const round = (value: number) => Math.round(value * 100) / 100;
