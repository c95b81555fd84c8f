import type { AppContext } from "./context.js";
import { startIdempotencyCleanup } from "./http/idempotency-cleanup.js";
import { sessionEventNotifierTask } from "./sessions/notifier-task.js";
import { startSessionWorker } from "./worker/index.js";

export interface BackgroundHandle {
  stop(): Promise<void>;
}

type BackgroundTask = (ctx: AppContext) => Promise<BackgroundHandle>;

/** Background work of the `worker` role. Each area registers its loop here (session turns, idempotency cleanup…). */
const tasks: BackgroundTask[] = [startIdempotencyCleanup, sessionEventNotifierTask, startSessionWorker];

export async function startBackground(ctx: AppContext): Promise<BackgroundHandle> {
  const handles = await Promise.all(tasks.map((task) => task(ctx)));
  return {
    async stop() {
      await Promise.all(handles.map((h) => h.stop()));
    },
  };
}
