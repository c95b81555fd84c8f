import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LABELLED_SETS, measure } from "./labelled-sets.js";

/** docs/guardrails.md's "Measured figures" table says what the offline checks do on the labelled sets, exactly. */
const GUARDRAILS_MD = readFileSync(new URL("../../../../docs/guardrails.md", import.meta.url), "utf8");
const ROW = /^\| `(\w+)` +\| `([\w.-]+)` +\| (\d+) \/ (\d+) +\| ([\d.]+) +\| ([\d.]+) +\|$/gm;

describe("the labelled-set figures of docs/guardrails.md", () => {
  const documented = [...GUARDRAILS_MD.matchAll(ROW)].map((m) => ({
    check: m[1],
    file: m[2],
    positives: Number(m[3]),
    negatives: Number(m[4]),
    precision: Number(m[5]),
    recall: Number(m[6]),
  }));

  it("has a row for every labelled set", () => {
    expect(documented.map((d) => d.file).sort()).toEqual(LABELLED_SETS.map((s) => s.file).sort());
  });

  for (const set of LABELLED_SETS) {
    it(`${set.check.type} on ${set.file}`, () => {
      const { check, file, positives, negatives, precision, recall } = measure(set);
      expect(documented.find((d) => d.file === file)).toEqual({ check, file, positives, negatives, precision, recall });
    });
  }
});
