import type { Automation } from "@agent-platform/sdk";
import { formatTime } from "../lib/format.js";

const viewerZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The next firing in the automation's time zone and, when it differs, in the viewer's. */
export function NextRun({ automation }: { automation: Automation }) {
  if (!automation.nextRunAt) return <span className="muted">{automation.enabled ? "manual only" : "disabled"}</span>;
  const zone = automation.trigger.type === "schedule" ? automation.trigger.timezone : "UTC";
  return (
    <span className="next-run">
      <time dateTime={automation.nextRunAt}>{formatTime(automation.nextRunAt, zone)}</time>
      {zone !== viewerZone && (
        <span className="muted small"> ({formatTime(automation.nextRunAt, viewerZone)} your time)</span>
      )}
    </span>
  );
}
