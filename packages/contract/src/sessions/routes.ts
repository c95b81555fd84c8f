import { z } from "zod";
import { EmptyBodySchema } from "../common/fields.js";
import { cursorPage } from "../common/pagination.js";
import { c, routerOptions } from "../common/router.js";
import type { RouteDocMetadata } from "../openapi/operation-facts.js";
import { IngestEventsSchema, IngestedEventSchema, SessionEventListQuery } from "./events.js";
import { SessionEventPageSchema } from "./log-events.js";
import {
  CreateSessionSchema,
  ForkSessionSchema,
  SessionListQuery,
  SessionSchema,
  UpdateSessionSchema,
} from "./sessions.js";
import { ProjectUsageQuery, ProjectUsageSchema } from "./usage.js";

const PathId = z.string().min(1).max(128);
const ProjectParams = z.object({ projectId: PathId });
const SessionParams = z.object({ projectId: PathId, id: PathId });

export const IngestAcknowledgementSchema = z
  .object({
    events: z
      .array(IngestedEventSchema)
      .describe("One entry per event sent, in the order sent; duplicates point at their original entry"),
    session: SessionSchema.describe("The session right after the events were appended"),
  })
  .describe("Acknowledgement of an event batch");

export const SessionStreamQuery = z.object({
  afterSeq: z.coerce
    .number()
    .int()
    .min(0)
    .optional()
    .describe("Start after this `seq` (default 0); `Last-Event-ID` wins when both are sent"),
  deltas: z
    .enum(["true", "false"])
    .optional()
    .describe("`true`: also send `agent.delta` events (the reply as it is written; ephemeral, not replayed)"),
});

export const SessionStreamHeaders = z.object({
  "last-event-id": z
    .string()
    .regex(/^\d{1,10}$/, "the `seq` of the last entry received")
    .optional()
    .describe("Resume after this `seq` (sent by EventSource when it reconnects)"),
});

const base = "/v1/projects/:projectId/sessions";

export const sessionsContract = c.router(
  {
    create: {
      method: "POST",
      path: base,
      pathParams: ProjectParams,
      body: CreateSessionSchema,
      responses: { 201: SessionSchema },
      summary: "Create a session",
      description:
        "Resolves the agent version (current when `agent` is only an id) and, once and for all, `environmentId`, " +
        "`vaultIds` and `resources`: the value sent (presence is the signal: `[]` means none, `environmentId: null` " +
        "the project's default environment), else the agent version's `defaults`, else the project default " +
        "environment, no vaults, no memory. Optional `events` are appended to the new log in the same transaction.",
      metadata: {
        errors: [
          "agent.not_found",
          "agent.version_not_found",
          "agent.archived",
          "session.environment_not_found",
          "session.vault_not_found",
          "session.memory_store_not_found",
          "budget.exceeded",
        ],
      } satisfies RouteDocMetadata,
    },
    list: {
      method: "GET",
      path: base,
      pathParams: ProjectParams,
      query: SessionListQuery,
      responses: { 200: cursorPage(SessionSchema) },
      summary: "List sessions, newest first",
      description:
        "Filters combine: `agent`, `status`, `archived` and any number of `metadata[key]=value` pairs (a session must have them all).",
    },
    usage: {
      method: "GET",
      path: "/v1/projects/:projectId/usage",
      pathParams: ProjectParams,
      query: ProjectUsageQuery,
      responses: { 200: ProjectUsageSchema },
      summary: "Model usage of the project's sessions by day, agent and model",
      description:
        "Sums of the `agent.usage` entries and compaction calls of the project's sessions written in the last " +
        "`days` UTC days, agent experiments' case sessions included (model-task experiments and `llm_judge` calls run " +
        "outside sessions and are not; nor are sessions deleted since). Budgets count every call for their limits " +
        "(`GET /v1/budgets`).",
    },
    get: {
      method: "GET",
      path: `${base}/:id`,
      pathParams: SessionParams,
      responses: { 200: SessionSchema },
      summary: "Get a session: metadata and status",
      description:
        "`status` and `stopReason` say whether the agent is working or waiting: `requires_action` means a tool waits for a `user.tool_confirmation` event.",
    },
    update: {
      method: "PATCH",
      path: `${base}/:id`,
      pathParams: SessionParams,
      body: UpdateSessionSchema,
      responses: { 200: SessionSchema },
      summary: "Rename a session",
      description:
        "Only the title: trimmed, 1 to 200 characters; null removes it. Writes nothing to the log, does not wake the " +
        "worker, works on archived sessions.",
    },
    archive: {
      method: "POST",
      path: `${base}/:id/archive`,
      pathParams: SessionParams,
      body: EmptyBodySchema,
      responses: { 200: SessionSchema },
      summary: "Archive a session (idempotent); it then refuses new events",
      description:
        "Archiving again keeps the first archive time. An archived session can still be read, renamed and deleted; new events are refused with 409 `session.archived`.",
    },
    unarchive: {
      method: "POST",
      path: `${base}/:id/unarchive`,
      pathParams: SessionParams,
      body: EmptyBodySchema,
      responses: { 200: SessionSchema },
      summary: "Unarchive a session (idempotent); it accepts events again",
      description:
        "Clears `archivedAt`. The log, status and title are as they were; an active session is returned unchanged.",
    },
    fork: {
      method: "POST",
      path: `${base}/:id/fork`,
      pathParams: SessionParams,
      body: ForkSessionSchema,
      responses: { 201: SessionSchema },
      summary: "Fork a session at a `seq` of its log",
      description:
        "A new session of the project whose log starts with copies of the source's entries up to `atSeq` (same " +
        "`seq`s, same ids, copied by one statement), with the source's execution settings (environment, vaults, " +
        "memory, loop settings), pinned to `agent` and running `model` when given, and `forkedFrom` set. Archived " +
        "sources fork like active ones. When the copied log ends with input the agent has not answered (a " +
        "`user.message` after the last turn), the fork's turn starts at once. A point inside an open turn (a turn " +
        "running, or tool uses without results or waiting for an answer) is refused with 409 " +
        "`session.fork_point_open`; `atSeq` beyond the log is 400 `request.invalid`.",
      metadata: {
        errors: [
          "agent.not_found",
          "agent.version_not_found",
          "agent.archived",
          "session.fork_point_open",
          "budget.exceeded",
        ],
      } satisfies RouteDocMetadata,
    },
    remove: {
      method: "DELETE",
      path: `${base}/:id`,
      pathParams: SessionParams,
      body: c.noBody(),
      responses: { 204: c.noBody() },
      summary: "Delete a session and its log",
      description: "The event log and the loop's state go with it; this cannot be undone.",
    },
    ingestEvents: {
      method: "POST",
      path: `${base}/:id/events`,
      pathParams: SessionParams,
      body: IngestEventsSchema,
      responses: { 202: IngestAcknowledgementSchema },
      summary: "Send events to a session",
      description:
        "The batch is validated whole and appended whole, in order, or refused whole. 202: the events are in the log " +
        "and the agent processes them asynchronously (follow the log). An event whose `idempotencyKey` the session " +
        "already has is not appended again: it is acknowledged with `duplicate: true` and its original `seq` and `id`, " +
        "with the same status code, so a retry needs no special handling.",
      metadata: { errors: ["session.archived", "session.invalid_event"] } satisfies RouteDocMetadata,
    },
    listEvents: {
      method: "GET",
      path: `${base}/:id/events`,
      pathParams: SessionParams,
      query: SessionEventListQuery,
      responses: { 200: SessionEventPageSchema },
      summary: "Read the session log in `seq` order",
      description: "Pass `nextAfterSeq` as the next `afterSeq` until `hasMore` is false.",
    },
    streamEvents: {
      method: "GET",
      path: `${base}/:id/events/stream`,
      pathParams: SessionParams,
      query: SessionStreamQuery,
      headers: SessionStreamHeaders,
      responses: {
        200: c.otherResponse({
          contentType: "text/event-stream",
          body: z
            .string()
            .describe(
              "Server-Sent Events: each log entry as `id: <seq>`, `event: <type>`, `data: <entry JSON>`; " +
                "`: ping` comments as heartbeats; with `deltas=true` also `event: agent.delta` frames without `id:` " +
                "(data: a SessionDelta) and, when an output guardrail takes a streamed reply back, " +
                "`event: agent.delta_withdrawn` (data: a SessionDeltaWithdrawn)",
            ),
        }),
      },
      summary: "Follow the session log as Server-Sent Events",
      description:
        "Replays the entries after `Last-Event-ID` (or `afterSeq`), then streams new entries as they are committed, " +
        "with a `: ping` comment every 15 seconds. Reconnect with `Last-Event-ID` to resume without gaps or repeats.",
    },
  },
  routerOptions,
);
