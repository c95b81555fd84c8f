import type { Session } from "@agent-platform/sdk";

/** A tool use the session waits on (a confirmation or a custom tool result). */
export type PendingAction = Session["pendingActions"][number];
