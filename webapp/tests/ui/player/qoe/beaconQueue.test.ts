// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  BeaconQueue,
  MAX_BEACONS,
  MAX_QUEUED,
  batchesOf,
  retryAfterOf,
  type Batch,
  type SendOutcome,
} from "@/ui/player/qoe/beaconQueue";
import type { Beacon } from "@/ui/player/qoe/view";

const beacon = (view: string, n = 0): Beacon => ({
  view,
  type: "watched",
  event: "5f1c0a8e2b3d4c5e6f7a8b9c",
  asset: null,
  rendition: null,
  player: "hls.js",
  playerVersion: "1.7.4",
  at: new Date(Date.UTC(2026, 10, 30) + n).toISOString(),
  ms: n,
});

/** A queue whose sends are recorded and answered by `answer`. */
function aQueue(answer: (batch: Batch) => Promise<SendOutcome> = async () => ({ retryAfterSeconds: null })) {
  const sent: Batch[] = [];
  const queue = new BeaconQueue({
    send: (batch) => {
      sent.push(batch);
      return answer(batch);
    },
    anonymousId: () => "anon-1234",
    batchSeconds: 10,
  });
  return { queue, sent };
}

describe("the page's beacon queue", () => {
  beforeEach(() => vi.useFakeTimers({ now: Date.UTC(2026, 10, 30, 19) }));
  afterEach(() => vi.useRealTimers());

  it("sends what was queued every batch_seconds, with the browser's anonymous id", async () => {
    const { queue, sent } = aQueue();
    queue.push(beacon("view-0001", 1));
    await vi.advanceTimersByTimeAsync(9_999);
    expect(sent).toEqual([]);
    queue.push(beacon("view-0001", 2));
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual([{ anonymousId: "anon-1234", beacons: [beacon("view-0001", 1), beacon("view-0001", 2)] }]);
    // Nothing queued: nothing sent, however long the page stays.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent).toHaveLength(1);
  });

  it("sends at once when asked (the page is hidden or goes)", async () => {
    const { queue, sent } = aQueue();
    queue.push(beacon("view-0001"));
    await queue.flush();
    expect(sent).toHaveLength(1);
    expect(queue.size).toBe(0);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sent).toHaveLength(1);
  });

  it("splits into batches the server takes: at most 50 beacons, and 4 views each", () => {
    const many = Array.from({ length: 120 }, (_, n) => beacon("view-0001", n));
    expect(batchesOf(many).map((batch) => batch.length)).toEqual([MAX_BEACONS, MAX_BEACONS, 20]);
    const views = ["a", "b", "c", "d", "e", "a"].map((id) => beacon(`view-000${id}`));
    expect(batchesOf(views).map((batch) => batch.map((b) => b.view.at(-1)).join(""))).toEqual(["abcd", "ea"]);
    // Order is kept across batches.
    expect(batchesOf(many).flat()).toEqual(many);
  });

  it("drops a batch the server refuses or that never arrives, and never sends it again", async () => {
    const { queue, sent } = aQueue(async (batch) => {
      if (batch.beacons[0].ms === 1) throw new Error("offline");
      return { retryAfterSeconds: null }; // a 400: dropped as well
    });
    queue.push(beacon("view-0001", 1));
    await vi.advanceTimersByTimeAsync(10_000);
    queue.push(beacon("view-0001", 2));
    await vi.advanceTimersByTimeAsync(10_000);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent.map((batch) => batch.beacons.map((b) => b.ms))).toEqual([[1], [2]]);
  });

  it("after a 429 sends nothing until its Retry-After has passed, keeping what comes meanwhile", async () => {
    const { queue, sent } = aQueue(async (batch) => ({ retryAfterSeconds: batch.beacons[0].ms === 1 ? 30 : null }));
    queue.push(beacon("view-0001", 1));
    await vi.advanceTimersByTimeAsync(10_000); // refused: wait 30 s
    queue.push(beacon("view-0001", 2));
    await queue.flush(); // the page is hidden: still waiting
    await vi.advanceTimersByTimeAsync(29_000);
    expect(sent.map((batch) => batch.beacons.map((b) => b.ms))).toEqual([[1]]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sent.map((batch) => batch.beacons.map((b) => b.ms))).toEqual([[1], [2]]);
  });

  it("keeps at most MAX_QUEUED beacons while it waits, dropping the oldest", async () => {
    const { queue, sent } = aQueue(async () => ({ retryAfterSeconds: 60 }));
    queue.push(beacon("view-0001", 0));
    await queue.flush();
    for (let n = 1; n <= MAX_QUEUED + 10; n += 1) queue.push(beacon("view-0001", n));
    expect(queue.size).toBe(MAX_QUEUED);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent.slice(1).flatMap((batch) => batch.beacons.map((b) => b.ms))[0]).toBe(11);
  });

  it("reads the wait from a 429's Retry-After (a minute when it says none)", () => {
    expect(retryAfterOf(new Response(null, { status: 429, headers: { "Retry-After": "12" } }))).toEqual({
      retryAfterSeconds: 12,
    });
    expect(retryAfterOf(new Response(null, { status: 429 }))).toEqual({ retryAfterSeconds: 60 });
    expect(retryAfterOf(new Response(null, { status: 400 }))).toEqual({ retryAfterSeconds: null });
    expect(retryAfterOf(new Response(null, { status: 202 }))).toEqual({ retryAfterSeconds: null });
  });
});
