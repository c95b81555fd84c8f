import { z } from "zod";
import type { ErrorCode } from "../common/errors.js";
import { EmptyBodySchema } from "../common/fields.js";
import { cursorPage } from "../common/pagination.js";
import { c, routerOptions } from "../common/router.js";
import type { RouteDocMetadata } from "../openapi/operation-facts.js";
import {
  AutomationListQuery,
  AutomationSchema,
  CreateAutomationSchema,
  UpdateAutomationSchema,
} from "./automations.js";
import { ParsedScheduleSchema, ParseScheduleSchema } from "./parse-schedule.js";
import { AutomationRunListQuery, AutomationRunSchema } from "./runs.js";

const PathId = z.string().min(1).max(128);
const ProjectParams = z.object({ projectId: PathId });
const AutomationParams = z.object({ projectId: PathId, id: PathId });

/** What creating or updating an automation answers when one of its references cannot be used. */
const AUTOMATION_REFERENCE_ERRORS = [
  "automation.agent_archived",
  "automation.agent_version_not_found",
  "automation.environment_not_found",
  "automation.vault_not_found",
  "automation.memory_store_not_found",
] as const satisfies readonly ErrorCode[];

export const RunAcceptedSchema = z
  .object({
    accepted: z.literal(true),
    runId: z.string().describe("`autrun_…` id the run record will have in the runs list"),
  })
  .describe("The manual run was recorded durably; its result appears in the runs list");

const base = "/v1/projects/:projectId/automations";

export const automationsContract = c.router(
  {
    create: {
      method: "POST",
      path: base,
      pathParams: ProjectParams,
      body: CreateAutomationSchema,
      responses: { 201: AutomationSchema },
      summary: "Create an automation",
      description:
        "Validates the references (agent, pinned version, environment, vaults, memory stores) and, for a schedule, " +
        "the cron expression and time zone; an enabled schedule is armed in the same transaction.",
      metadata: {
        errors: ["agent.not_found", ...AUTOMATION_REFERENCE_ERRORS],
      } satisfies RouteDocMetadata,
    },
    list: {
      method: "GET",
      path: base,
      pathParams: ProjectParams,
      query: AutomationListQuery,
      responses: { 200: cursorPage(AutomationSchema) },
      summary: "List automations, newest first",
      description: "Schedule triggers are returned with their defaults filled in (`overlap`, `jitterSeconds`).",
    },
    parseSchedule: {
      method: "POST",
      path: `${base}/parse-schedule`,
      pathParams: ProjectParams,
      body: ParseScheduleSchema,
      responses: { 200: ParsedScheduleSchema },
      summary: "Convert an English schedule description to cron",
      description:
        "Deterministic (no model): returns the cron expression, the time zone, a description and the next fire " +
        "times. Text it cannot understand is 422 `automation.unparseable_schedule`; an unknown time zone is 400.",
      metadata: { errors: ["automation.unparseable_schedule"] } satisfies RouteDocMetadata,
    },
    get: {
      method: "GET",
      path: `${base}/:id`,
      pathParams: AutomationParams,
      responses: { 200: AutomationSchema },
      summary: "Get an automation",
      description:
        "`agentVersion: null` means the agent's current version at each firing; schedule triggers come with their defaults filled in.",
    },
    update: {
      method: "PATCH",
      path: `${base}/:id`,
      pathParams: AutomationParams,
      body: UpdateAutomationSchema,
      responses: { 200: AutomationSchema },
      summary: "Update an automation (patch semantics)",
      description:
        "Only present fields change; `agentVersion`, `environmentId` and `description` accept null to clear. " +
        "References are validated again only where they changed. A schedule change, enabling or disabling re-arms " +
        "or removes the schedule in the same transaction.",
      metadata: {
        errors: AUTOMATION_REFERENCE_ERRORS,
      } satisfies RouteDocMetadata,
    },
    remove: {
      method: "DELETE",
      path: `${base}/:id`,
      pathParams: AutomationParams,
      body: c.noBody(),
      responses: { 204: c.noBody() },
      summary: "Delete an automation, its schedule and its run records",
      description: "Sessions it created stay. A firing in progress at that moment commits nothing.",
    },
    run: {
      method: "POST",
      path: `${base}/:id/run`,
      pathParams: AutomationParams,
      body: EmptyBodySchema,
      responses: { 202: RunAcceptedSchema },
      summary: "Fire the automation now",
      description:
        "Works whatever the trigger and whether or not the automation is enabled; the overlap policy does not apply. " +
        "The firing is a durable job (it survives a worker restart); its result is read from the runs list.",
    },
    listRuns: {
      method: "GET",
      path: `${base}/:id/runs`,
      pathParams: AutomationParams,
      query: AutomationRunListQuery,
      responses: { 200: cursorPage(AutomationRunSchema) },
      summary: "List the automation's runs, newest first",
      description: "`sessionStatus`, `sessionStopReason` and `sessionTitle` are read live from the session.",
    },
  },
  routerOptions,
);
