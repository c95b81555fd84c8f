import { describe, expect, it } from "vitest";
import type { StoredEvent } from "../../src/sessions/index.js";
import { RecentEvents } from "../../src/sessions/recent-events.js";

const entry = (seq: number): StoredEvent => ({ seq, id: `ev_${seq}`, type: "agent.message", createdAt: "" });
const entries = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => entry(from + i));

describe("recent entries a process committed (for its own SSE followers)", () => {
  it("gives back exactly the entries asked for when every one was committed here, gap-free", async () => {
    const recent = new RecentEvents();
    await recent.committing("s", Promise.resolve(entries(3, 4)));
    await recent.committing("s", Promise.resolve(entries(5, 7)));
    expect((await recent.read("s", 2, 7))?.map((e) => e.seq)).toEqual([3, 4, 5, 6, 7]);
    expect((await recent.read("s", 4, 6))?.map((e) => e.seq)).toEqual([5, 6]);
    // Entry 2, or 8, was not committed here: the follower reads the log.
    expect(await recent.read("s", 1, 7)).toBeNull();
    expect(await recent.read("s", 6, 8)).toBeNull();
    expect(await recent.read("other", 0, 1)).toBeNull();
  });

  it("announces a commit's newest entry once it is kept, so a follower here reads it without the notification", async () => {
    const told: [string, number, StoredEvent[] | null][] = [];
    const recent: RecentEvents = new RecentEvents((sessionId, seq) => {
      // What a follower does when told: its read, asked at once, finds the entries here.
      void recent.read(sessionId, seq - 1, seq).then((found) => told.push([sessionId, seq, found]));
    });
    await recent.committing("s", Promise.resolve(entries(1, 3)));
    await recent.committing("s", Promise.resolve([]));
    await recent.committing("t", Promise.reject(new Error("lease lost"))).catch(() => {});
    await new Promise((resolve) => setImmediate(resolve));
    expect(told).toEqual([["s", 3, [entry(3)]]]);
  });

  it("starts over after an entry committed elsewhere, never bridging the gap", async () => {
    const recent = new RecentEvents();
    await recent.committing("s", Promise.resolve(entries(1, 2)));
    await recent.committing("s", Promise.resolve(entries(4, 5)));
    expect(await recent.read("s", 2, 5)).toBeNull();
    expect((await recent.read("s", 3, 5))?.map((e) => e.seq)).toEqual([4, 5]);
  });

  it("makes a follower told before the commit answered wait for it; a failed commit leaves nothing", async () => {
    const recent = new RecentEvents();
    let answer!: (stored: StoredEvent[]) => void;
    const pending = recent.committing("s", new Promise<StoredEvent[]>((resolve) => (answer = resolve)));
    const read = recent.read("s", 0, 2);
    answer(entries(1, 2));
    await pending;
    expect((await read)?.map((e) => e.seq)).toEqual([1, 2]);

    const failed = recent.committing("t", Promise.reject(new Error("lease lost")));
    await expect(failed).rejects.toThrow("lease lost");
    expect(await recent.read("t", 0, 1)).toBeNull();
  });
});
