import type { AgentConfig } from "@agent-platform/contract";
import { type Database, Prisma } from "@agent-platform/db";
import type { AppContext } from "../context.js";
import { AppError } from "../http/app-error.js";
import { newId } from "../ids.js";
import { assertExpectedVersion, bumpUnderLock, type VersionLockRefusals } from "../lib/optimistic-lock.js";
import { prepared } from "../lib/prepared.js";
import { type AgentDraft, finalizeConfig } from "./agent-draft.js";
import { applyCredentialPlan, type CredentialPlan, copyCredentials, headerKeysOf } from "./mcp-credentials.js";
import { type AgentSnapshot, rememberSnapshot } from "./version-snapshots.js";

export interface AgentHead {
  id: string;
  projectId: string;
  currentVersion: number;
  createdAt: Date;
  updatedAt: Date;
  archivedAt: Date | null;
}

type Tx = Prisma.TransactionClient;

export interface Published {
  head: AgentHead;
  snapshot: AgentSnapshot;
}

export const HEAD_COLUMNS = Prisma.sql`"id", "projectId", "currentVersion", "createdAt", "updatedAt", "archivedAt"`;

export const agentNotFound = (agentId: string) => new AppError("agent.not_found", `Agent ${agentId} was not found`);

const archived = (agentId: string) =>
  new AppError("agent.archived", `Agent ${agentId} is archived; duplicate it to get an active copy`);

const versionConflict = (agentId: string, expected: number, current: number) =>
  new AppError(
    "agent.version_conflict",
    `Agent ${agentId} is at version ${current}, not ${expected}: read it again and resend your change`,
  );

export async function requireHead(db: Database | Tx, projectId: string, agentId: string): Promise<AgentHead> {
  const head = await db.agent.findFirst({
    where: { id: agentId, projectId },
    select: { id: true, projectId: true, currentVersion: true, createdAt: true, updatedAt: true, archivedAt: true },
  });
  if (!head) throw agentNotFound(agentId);
  return head;
}

const refusals = (agentId: string): VersionLockRefusals => ({
  notFound: () => agentNotFound(agentId),
  archived: () => archived(agentId),
  conflict: (expected, current) => versionConflict(agentId, expected, current),
});

/** A write needs an active agent whose current version is the one the caller expects. */
export function assertWritable(head: AgentHead, expectedVersion?: number): void {
  assertExpectedVersion(head, expectedVersion, refusals(head.id));
}

/** The guarded UPDATE of an agent's head (matches only while active and at the expected version), under the lock. */
function guardedHeadUpdate(tx: Tx, guard: Guard, update: () => Promise<AgentHead[]>): Promise<AgentHead> {
  return bumpUnderLock(
    async () => (await update())[0],
    () =>
      tx.agent.findFirst({
        where: { id: guard.agentId, projectId: guard.projectId },
        select: { currentVersion: true, archivedAt: true },
      }),
    guard.expectedVersion,
    refusals(guard.agentId),
  );
}

interface Guard {
  projectId: string;
  agentId: string;
  expectedVersion: number;
}

/**
 * Publishes `current + 1` under the optimistic lock: the version bump is one guarded UPDATE (it matches only while the
 * agent is active and at the expected version), in the same short transaction as the snapshot and the credentials. Of
 * two racing writes with the same expected version, the second UPDATE waits for the first and then matches nothing.
 */
export async function publishVersion(
  ctx: AppContext,
  guard: Guard,
  draft: AgentDraft,
  plan: CredentialPlan,
): Promise<Published> {
  const { projectId, agentId, expectedVersion } = guard;
  const result = await ctx.db.prisma.$transaction(async (tx) => {
    const head = await guardedHeadUpdate(
      tx,
      guard,
      () => tx.$queryRaw<AgentHead[]>`
        UPDATE agents SET "currentVersion" = "currentVersion" + 1, "name" = ${draft.name}, "updatedAt" = now()
        WHERE "id" = ${agentId} AND "projectId" = ${projectId} AND "currentVersion" = ${expectedVersion}
          AND "archivedAt" IS NULL
        RETURNING ${HEAD_COLUMNS}`,
    );
    const config = finalizeConfig(draft, await applyCredentialPlan(tx, ctx, agentId, plan));
    return { head, snapshot: await insertVersion(tx, agentId, head.currentVersion, config, head.updatedAt) };
  });
  return { head: result.head, snapshot: rememberSnapshot(result.snapshot) };
}

/** A change of header values only: the sealed store changes under the same lock, and no version is published. */
export async function writeCredentialsOnly(
  ctx: AppContext,
  guard: Guard,
  plan: CredentialPlan,
): Promise<{ head: AgentHead; headerKeys: Map<string, string[]> }> {
  const { projectId, agentId, expectedVersion } = guard;
  return ctx.db.prisma.$transaction(async (tx) => {
    const head = await guardedHeadUpdate(
      tx,
      guard,
      () => tx.$queryRaw<AgentHead[]>`
        UPDATE agents SET "updatedAt" = now()
        WHERE "id" = ${agentId} AND "projectId" = ${projectId} AND "currentVersion" = ${expectedVersion}
          AND "archivedAt" IS NULL
        RETURNING ${HEAD_COLUMNS}`,
    );
    return { head, headerKeys: await applyCredentialPlan(tx, ctx, agentId, plan) };
  });
}

/** Credentials of a new agent: the create body's headers, or a copy of another agent's sealed store (duplicate). */
export type NewCredentials = { plan: CredentialPlan } | { copyFrom: string; servers: string[] };

/**
 * Creates an agent at version 1. From a create body it is one statement (head, version and sealed credentials through
 * CTEs: atomic without an interactive transaction, one round trip); a duplicate copies the source's sealed store.
 */
export async function insertAgent(
  ctx: AppContext,
  projectId: string,
  draft: AgentDraft,
  credentials: NewCredentials,
): Promise<Published> {
  if ("plan" in credentials) return insertAgentFromBody(ctx, projectId, draft, credentials.plan);
  const id = newId("agent");
  const result = await ctx.db.prisma.$transaction(async (tx) => {
    const now = new Date();
    const head = await tx.agent.create({
      data: { id, projectId, name: draft.name, currentVersion: 1, createdAt: now, updatedAt: now },
    });
    const keys = await copyCredentials(tx, credentials.copyFrom, id, credentials.servers);
    const snapshot = await insertVersion(tx, id, 1, finalizeConfig(draft, keys), now);
    return { head, snapshot };
  });
  return { head: result.head, snapshot: rememberSnapshot(result.snapshot) };
}

async function insertAgentFromBody(
  ctx: AppContext,
  projectId: string,
  draft: AgentDraft,
  plan: CredentialPlan,
): Promise<Published> {
  const id = newId("agent");
  // A new agent has nothing stored: what the plan writes is exactly what it will hold.
  const written = [...plan.write].map(([serverName, headers]) => ({
    serverName,
    sealed: ctx.secrets.seal(headers),
    headerKeys: headerKeysOf(headers),
  }));
  const config = finalizeConfig(draft, new Map(written.map((c) => [c.serverName, c.headerKeys])));
  const configText = JSON.stringify(config);
  const { rows } = await ctx.db.pool.query<AgentHead>(
    prepared(
      `WITH head AS (
       INSERT INTO agents ("id", "projectId", "name", "currentVersion", "createdAt", "updatedAt")
       VALUES ($1, $2, $3, 1, now(), now()) RETURNING *
     ), version AS (
       INSERT INTO agent_versions ("agentId", "version", "config", "createdAt")
       SELECT "id", 1, $4::jsonb, "createdAt" FROM head
     ), credentials AS (
       INSERT INTO agent_mcp_credentials ("agentId", "serverName", "sealed", "headerKeys")
       SELECT $1, c."serverName", c."sealed", ARRAY(SELECT jsonb_array_elements_text(c."headerKeys"))
       FROM jsonb_to_recordset($5::jsonb) AS c("serverName" text, "sealed" text, "headerKeys" jsonb)
     )
     SELECT "id", "projectId", "currentVersion", "createdAt", "updatedAt", "archivedAt" FROM head`,
      [id, projectId, draft.name, configText, JSON.stringify(written)],
    ),
  );
  const head = rows[0]!;
  const snapshot = rememberSnapshot(
    { agentId: id, version: 1, config, publishedAt: head.createdAt },
    configText.length,
  );
  return { head, snapshot };
}

/** A version's publish time is the agent's `updatedAt` of the write that published it. */
async function insertVersion(
  tx: Tx,
  agentId: string,
  version: number,
  config: AgentConfig,
  publishedAt: Date,
): Promise<AgentSnapshot> {
  await tx.agentVersion.create({
    data: { agentId, version, config: config as unknown as Prisma.InputJsonValue, createdAt: publishedAt },
  });
  return { agentId, version, config, publishedAt };
}
