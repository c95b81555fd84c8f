import type { Agent } from "@agent-platform/sdk";
import { useState } from "react";
import { LineDiff } from "../components/text-diff.js";
import { configText } from "./agent-config.js";

/**
 * A readable diff of two versions of the history: the system prompt line by line (a one-line change to a long prompt
 * is one changed line, not the whole prompt as one JSON string), then the rest of the configuration as JSON with sorted
 * keys, unchanged runs folded.
 */
export function VersionDiff({ versions }: { versions: Agent[] }) {
  const numbers = versions.map((v) => v.version).sort((a, b) => a - b);
  // Until a person picks, the two newest versions (which change when an edit or a restore publishes one).
  const [picked, setPicked] = useState<{ from?: number; to?: number }>({});
  const from = picked.from ?? numbers.at(-2) ?? numbers[0];
  const to = picked.to ?? numbers.at(-1);
  const before = versions.find((v) => v.version === from);
  const after = versions.find((v) => v.version === to);
  if (numbers.length < 2) return <p className="muted">Only one version so far: an edit publishes the next.</p>;
  const systemChanged = (before?.system ?? "") !== (after?.system ?? "");
  const restBefore = before ? configText({ ...before, system: "" }) : "";
  const restAfter = after ? configText({ ...after, system: "" }) : "";
  return (
    <>
      <div className="filters">
        <label>
          From version
          <select value={from} onChange={(e) => setPicked((p) => ({ ...p, from: Number(e.target.value) }))}>
            {numbers.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <label>
          To version
          <select value={to} onChange={(e) => setPicked((p) => ({ ...p, to: Number(e.target.value) }))}>
            {numbers.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
      </div>
      {!systemChanged && restBefore === restAfter ? (
        <p className="muted">
          Versions {from} and {to} have the same configuration.
        </p>
      ) : (
        <>
          {systemChanged && (
            <>
              <h4>System prompt</h4>
              <LineDiff
                before={before?.system ?? ""}
                after={after?.system ?? ""}
                label={`System prompt from version ${from} to version ${to}`}
              />
            </>
          )}
          {restBefore !== restAfter && (
            <>
              <h4>{systemChanged ? "Rest of the configuration" : "Configuration"}</h4>
              <LineDiff before={restBefore} after={restAfter} label={`Changes from version ${from} to version ${to}`} />
            </>
          )}
        </>
      )}
    </>
  );
}
