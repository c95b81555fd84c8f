import type { BackgroundHandle } from "../background.js";
import type { AppContext } from "../context.js";
import { closeSessionEventNotifier } from "./event-notifier.js";

/**
 * The shared `LISTEN session_events` connection opens on demand and closes with its last subscriber; this background
 * task makes sure it is closed on shutdown even if a follower still holds a subscription (after a grace period that
 * lets a draining worker keep noticing interrupts).
 */
export async function sessionEventNotifierTask(ctx: AppContext): Promise<BackgroundHandle> {
  return { stop: () => closeSessionEventNotifier(ctx) };
}
