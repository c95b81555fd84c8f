import { type SessionEventPage, sessionsContract } from "@agent-platform/contract";
import { initServer } from "@ts-rest/express";
import type { AppContext } from "../context.js";
import { notFound } from "../http/app-error.js";
import { type AuthContext, authOf, projectScope } from "../http/auth-context.js";
import { jsonTextBody } from "../http/json-text-body.js";
import { createSession } from "./create-session.js";
import { openSessionEventStream } from "./event-stream.js";
import { forkSession } from "./fork-session.js";
import {
  archiveSession,
  deleteSession,
  getSession,
  ingestEvents,
  type LocalTurnsLink,
  listSessionEventsJson,
  listSessions,
  projectUsageByDay,
  renameSession,
  unarchiveSession,
} from "./log/index.js";
import { inputScreenOf } from "./screen-stored-input.js";

const s = initServer();

/** A session of another project is simply not found: the same 404 whether it exists or not. */
function sessionScope(req: { auth?: AuthContext }, params: { projectId: string; id: string }): AuthContext {
  const auth = authOf(req);
  if (auth.projectId !== params.projectId) throw notFound("session.not_found", "Session", params.id);
  return auth;
}

/** `localTurns`: this process's turn slots (the composition root's link), so an ingested turn may start here. */
export function sessionRoutes(ctx: AppContext, localTurns?: LocalTurnsLink) {
  const pool = ctx.db.pool;
  return s.router(sessionsContract, {
    create: async ({ req, params, body }) => ({
      status: 201,
      body: await createSession(ctx, projectScope(req, params.projectId), body),
    }),
    list: async ({ req, params, query }) => {
      projectScope(req, params.projectId);
      return { status: 200, body: await listSessions(pool, params.projectId, query) };
    },
    usage: async ({ req, params, query }) => {
      projectScope(req, params.projectId);
      return { status: 200, body: await projectUsageByDay(pool, params.projectId, query.days) };
    },
    get: async ({ req, params }) => {
      sessionScope(req, params);
      return { status: 200, body: await getSession(pool, params.projectId, params.id) };
    },
    update: async ({ req, params, body }) => {
      sessionScope(req, params);
      return { status: 200, body: await renameSession(pool, params.projectId, params.id, body.title) };
    },
    archive: async ({ req, params }) => {
      sessionScope(req, params);
      return { status: 200, body: await archiveSession(pool, params.projectId, params.id) };
    },
    unarchive: async ({ req, params }) => {
      sessionScope(req, params);
      return { status: 200, body: await unarchiveSession(pool, params.projectId, params.id) };
    },
    fork: async ({ req, params, body }) => {
      sessionScope(req, params);
      return { status: 201, body: await forkSession(ctx, params.projectId, params.id, body) };
    },
    remove: async ({ req, params }) => {
      sessionScope(req, params);
      await deleteSession(pool, params.projectId, params.id);
      return { status: 204, body: undefined };
    },
    ingestEvents: async ({ req, params, body }) => {
      sessionScope(req, params);
      return {
        status: 202,
        body: await ingestEvents(
          ctx,
          params.projectId,
          params.id,
          body.events,
          localTurns?.slotFor,
          inputScreenOf(ctx, params.projectId),
        ),
      };
    },
    listEvents: async ({ req, params, query }) => {
      sessionScope(req, params);
      return {
        status: 200,
        body: jsonTextBody<SessionEventPage>(
          await listSessionEventsJson(pool, params.projectId, params.id, query.afterSeq, query.limit),
        ),
      };
    },
    streamEvents: async ({ req, res, params, query, headers }) => {
      sessionScope(req, params);
      const lastEventId = headers["last-event-id"];
      const afterSeq = lastEventId !== undefined ? Number(lastEventId) : (query.afterSeq ?? 0);
      const stream = await openSessionEventStream(
        ctx,
        params.projectId,
        params.id,
        afterSeq,
        res,
        query.deltas === "true",
      );
      // ts-rest pipes a stream body into the response as is; the contract documents it as text/event-stream.
      return { status: 200, body: stream as unknown as string };
    },
  });
}
