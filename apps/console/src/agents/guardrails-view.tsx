import type { Guardrail } from "@agent-platform/sdk";
import { checkSummary, STAGE_NAME } from "../guardrails/describe.js";

/** An agent version's guardrails, in the order they run: stage, check with its settings, action. */
export function GuardrailsView({ guardrails }: { guardrails: Guardrail[] | undefined }) {
  if (!guardrails?.length) {
    return <p className="muted">None: nothing checks this agent's inputs, tool results or replies.</p>;
  }
  return (
    <table className="list stack" aria-label="Guardrails">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Stage</th>
          <th scope="col">Check</th>
          <th scope="col">Action</th>
        </tr>
      </thead>
      <tbody>
        {guardrails.map((g) => {
          const name = g.name ?? `${g.stage}.${g.check.type}`;
          return (
            <tr key={name}>
              <td data-label="Name">
                <code>{name}</code>
              </td>
              <td data-label="Stage">{STAGE_NAME[g.stage]}</td>
              <td data-label="Check">
                {checkSummary(g.check)}
                {g.check.type === "pii" &&
                  g.check.patterns?.map((p) => (
                    <div key={p.name} className="small muted">
                      {p.name}: <code>{p.pattern}</code>
                      {p.flags ? ` (flags ${p.flags})` : ""}
                    </div>
                  ))}
              </td>
              <td data-label="Action">
                <span className={`badge ${g.action === "block" ? "failed" : "waiting"}`}>{g.action}</span>
                {g.keepOriginal && <div className="small muted">the log keeps the original</div>}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
