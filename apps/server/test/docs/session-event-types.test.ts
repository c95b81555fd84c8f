import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { StopReasonSchema, UserEventSchema } from "@agent-platform/contract";
import { describe, expect, it } from "vitest";
import { EV } from "../../src/runtime/loop/events.js";

/** The event-type and stop-reason tables of docs/sessions.md list exactly what the server writes. */

const SESSIONS_MD = readFileSync(fileURLToPath(new URL("../../../../docs/sessions.md", import.meta.url)), "utf8");

/** First cells (`` `x` ``) of the table that follows `heading`. */
function firstColumn(heading: string): string[] {
  const start = SESSIONS_MD.indexOf(heading);
  expect(start, `docs/sessions.md has ${heading}`).toBeGreaterThan(-1);
  const lines = SESSIONS_MD.slice(start).split("\n");
  const first = lines.findIndex((line) => line.startsWith("|"));
  const rows: string[] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(/^\| `([^`]+)` \|/.exec(line)?.[1] ?? line);
  }
  return rows;
}

describe("docs/sessions.md event types", () => {
  it("lists every type the loop reads and writes, and the user events, once each", () => {
    const documented = firstColumn("\n## Event types\n");
    const userTypes = UserEventSchema._def.schema.options.map((o) => o.shape.type.value);
    const expected = new Set<string>([...Object.values(EV), ...userTypes]);
    expect([...documented].sort()).toEqual([...expected].sort());
  });

  it("lists every stop reason", () => {
    const documented = firstColumn("Stop reasons (`session.status_idle.stopReason`");
    expect(documented.sort()).toEqual([...StopReasonSchema.options].sort());
  });
});
