import type { WebhookEventType } from "@agent-platform/sdk";

/** Every webhook event type, with when it is sent (checked against the contract's list at compile time). */
export const WEBHOOK_EVENTS = {
  "session.idle": "a session's turn ended",
  "session.requires_action": "a session waits for a confirmation or a custom tool result",
  "session.error": "a session's turn failed",
  "session.outcome_evaluated": "a turn's answer was graded against its outcome",
  "session.guardrail": "a guardrail flagged, redacted or blocked something in a turn",
  "automation.run.started": "an automation fired and started a session",
  "automation.run.error": "an automation could not fire",
  "experiment.completed": "an experiment finished",
  "experiment.failed": "an experiment failed",
  "webhook.test": "a test event sent from here",
} satisfies Record<WebhookEventType, string>;

/** `*` (every event, including types added later) or a choice of types. */
export function EventsPicker({ events, onChange }: { events: string[]; onChange(events: string[]): void }) {
  const all = events.includes("*");
  return (
    <fieldset className="group">
      <legend>Events</legend>
      <label className="inline">
        <input type="checkbox" checked={all} onChange={(e) => onChange(e.target.checked ? ["*"] : [])} /> All events,
        including types added later
      </label>
      {!all && (
        <div className="choices">
          {Object.entries(WEBHOOK_EVENTS).map(([type, when]) => (
            <label key={type}>
              <input
                type="checkbox"
                checked={events.includes(type)}
                onChange={(e) => onChange(e.target.checked ? [...events, type] : events.filter((t) => t !== type))}
              />
              <span>
                <code>{type}</code> <span className="muted small">{when}</span>
              </span>
            </label>
          ))}
        </div>
      )}
    </fieldset>
  );
}
