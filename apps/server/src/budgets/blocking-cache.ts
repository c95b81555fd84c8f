import type { BudgetMeter } from "@agent-platform/contract";
import type pg from "pg";
import type { AppContext } from "../context.js";

/** Channel of budget changes (a trigger on `budgets` NOTIFYs at commit); payload: the workspace id. */
export const BUDGETS_CHANNEL = "budgets";

interface BlockingBudget {
  scope: string;
  agentId: string | null;
  meter: string;
}

/** Workspaces remembered at most; past it the cache starts over (a read per workspace refills it). */
const MAX_WORKSPACES = 50_000;

/**
 * Which blocking budgets each workspace has (scope, agent, meter; not their consumption), per process, so that work
 * under no blocking budget (the common case: every model call asks) costs no read. A trigger on `budgets` NOTIFYs the
 * workspace at the commit of any change, and every process drops that workspace's entry; a change made in this
 * process is also dropped at once (`forget`), so its own next request sees it. The cache is only trusted while the
 * shared listener is connected and listening on the channel (notifications sent while it is down are lost; it is
 * cleared when it reconnects). A read that started before a change was announced is not kept.
 */
export class BlockingBudgetCache {
  private readonly known = new Map<string, BlockingBudget[]>();
  private listening = false;
  private armed = false;
  /** Moves with every announced change: a read that saw an older value does not fill the cache. */
  private generation = 0;

  constructor(private readonly ctx: Pick<AppContext, "listener">) {}

  /** Whether a blocking budget of the workspace (or of `agentId`) counts one of `meters`. */
  async mayBlock(
    db: Pick<pg.Pool, "query">,
    input: { workspaceId: string; agentId?: string | null; meters: readonly BudgetMeter[] },
  ): Promise<boolean> {
    const budgets = await this.budgets(db, input.workspaceId);
    return budgets.some(
      (b) =>
        input.meters.includes(b.meter as BudgetMeter) &&
        (b.scope === "workspace" || (input.agentId != null && b.agentId === input.agentId)),
    );
  }

  /** Drops what is known of a workspace (this process changed its budgets). */
  forget(workspaceId: string): void {
    this.generation++;
    this.known.delete(workspaceId);
  }

  private async budgets(db: Pick<pg.Pool, "query">, workspaceId: string): Promise<BlockingBudget[]> {
    this.listen();
    const trusted = this.armed && this.ctx.listener.connected;
    if (trusted) {
      const cached = this.known.get(workspaceId);
      if (cached) return cached;
    }
    const generation = this.generation;
    const { rows } = await db.query<BlockingBudget>(
      `SELECT "scope", "agentId", "meter" FROM budgets WHERE "workspaceId" = $1 AND "action" = 'block'`,
      [workspaceId],
    );
    if (trusted && generation === this.generation) {
      if (this.known.size >= MAX_WORKSPACES) this.known.clear();
      this.known.set(workspaceId, rows);
    }
    return rows;
  }

  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    this.ctx.listener.subscribe(BUDGETS_CHANNEL, {
      onNotification: (workspaceId) => this.forget(workspaceId),
      onConnected: () => {
        this.generation++;
        this.known.clear();
        this.armed = true;
      },
    });
  }
}

const caches = new WeakMap<object, BlockingBudgetCache>();

/** The process's cache (one per application context). */
export function blockingBudgetCache(ctx: Pick<AppContext, "listener">): BlockingBudgetCache {
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new BlockingBudgetCache(ctx);
    caches.set(ctx, cache);
  }
  return cache;
}
