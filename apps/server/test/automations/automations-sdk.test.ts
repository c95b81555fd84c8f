import { ApiError, paginate } from "@agent-platform/sdk";
import { createClient } from "@agent-platform/sdk/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { waitUntil } from "./helpers.js";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ role: "all" });
});
afterAll(async () => {
  await t?.close();
});

describe("automations through the SDK", () => {
  it("parses a schedule, creates an automation from it, runs it and reads its runs", async () => {
    const client = createClient({ baseUrl: t.url, apiKey: t.tenant.key });
    const projectId = t.tenant.projectId;
    const agent = await client.agents.create({ params: { projectId }, body: { name: "Echo", model: "builtin/echo" } });
    const schedule = await client.automations.parseSchedule({
      params: { projectId },
      body: { text: "every weekday at 9am in Europe/Paris" },
    });
    expect(schedule).toMatchObject({ cron: "0 9 * * 1-5", timezone: "Europe/Paris" });

    const automation = await client.automations.create({
      params: { projectId },
      body: {
        name: "Standup notes",
        agentId: agent.id,
        prompt: "Draft the standup notes.",
        trigger: { type: "schedule", cron: schedule.cron, timezone: schedule.timezone, overlap: "skip" },
      },
    });
    expect(automation.nextRunAt).toBe(schedule.nextRuns[0]);

    const { runId } = await client.automations.run({ params: { projectId, id: automation.id } });
    const run = await waitUntil("the run", async () => {
      for await (const r of paginate(client.automations.listRuns, { params: { projectId, id: automation.id } })) {
        // A new session is idle before its first turn too: the turn has ended once a stop reason is set.
        if (r.id === runId && r.sessionStatus === "idle" && r.sessionStopReason !== null) return r;
      }
      return undefined;
    });
    expect(run).toMatchObject({ status: "started", triggerKind: "manual", sessionStopReason: "end_turn" });

    const paused = await client.automations.update({
      params: { projectId, id: automation.id },
      body: { enabled: false, description: "paused for the holidays" },
    });
    expect(paused).toMatchObject({ enabled: false, nextRunAt: null, description: "paused for the holidays" });
    await client.automations.remove({ params: { projectId, id: automation.id } });
    const gone = await client.automations.get({ params: { projectId, id: automation.id } }).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(ApiError);
    expect(gone).toMatchObject({ status: 404, code: "automation.not_found" });
  });
});
