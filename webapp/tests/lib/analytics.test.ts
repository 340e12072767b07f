import { afterEach, describe, expect, it, vi } from "vitest";
import { analytics as facade, configureAnalytics, type AnalyticsEvent, type AnalyticsSink } from "@/lib/analytics";
import {
  ANONYMOUS_ID_KEY,
  batchesOf,
  cleanProperties,
  createCollector,
  MAX_BATCH,
  MAX_BATCH_BYTES,
} from "@/lib/analytics/collector";

function memoryStorage() {
  const values = new Map<string, string>();
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    removeItem: (key: string) => void values.delete(key),
  };
}

function recordingSink() {
  const batches: AnalyticsEvent[][] = [];
  const sink: AnalyticsSink = { send: (events) => (batches.push(events), Promise.resolve()) };
  return { batches, sink };
}

const NOW = new Date("2026-11-24T18:00:00Z");
let ids = 0;
const options = (sink: AnalyticsSink, extra = {}) => ({
  enabled: true,
  tenant: "touchline",
  sink,
  storage: memoryStorage(),
  now: () => NOW,
  randomId: () => `anonymous${(ids += 1)}`,
  ...extra,
});

afterEach(() => vi.useRealTimers());

describe("analytics", () => {
  it("sends identify and track events carrying the tenant, batched after a short wait", async () => {
    vi.useFakeTimers();
    const { batches, sink } = recordingSink();
    const analytics = createCollector(options(sink));
    analytics.identify("user-1", { locale: "he" });
    analytics.track("login_failed", { code: "invalid_credentials", message: "Wrong password" });
    expect(batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(2000);
    expect(batches).toHaveLength(1);
    const [identify, track] = batches[0]!;
    expect(identify).toMatchObject({
      type: "identify",
      name: "identify",
      tenant: "touchline",
      properties: { locale: "he", userId: "user-1" },
    });
    expect(track).toEqual({
      type: "track",
      name: "login_failed",
      tenant: "touchline",
      anonymousId: identify!.anonymousId,
      timestamp: "2026-11-24T18:00:00.000Z",
      properties: { code: "invalid_credentials", message: "Wrong password" },
    });
  });

  it("never sends more than the contract's batch size at once", async () => {
    const { batches, sink } = recordingSink();
    const analytics = createCollector(options(sink));
    for (let n = 0; n < MAX_BATCH + 3; n += 1) analytics.track("clicked");
    await analytics.flush();
    expect(batches.map((batch) => batch.length)).toEqual([MAX_BATCH, 3]);
  });

  it("keeps each batch within the server's bytes and anonymous ids, and drops an event too large", async () => {
    const { batches, sink } = recordingSink();
    const analytics = createCollector(options(sink));
    const long = Object.fromEntries(Array.from({ length: 20 }, (_, n) => [`p${n}`, "x".repeat(500)]));
    analytics.track("too_large", long); // 10 KB: the server would refuse the batch holding it
    const comment = { comment: "가".repeat(500) }; // 1.5 KB in UTF-8
    for (let n = 0; n < 30; n += 1) analytics.track("survey_submitted", comment);
    await analytics.flush();
    expect(batches.flat().map((event) => event.name)).not.toContain("too_large");
    expect(batches.flat()).toHaveLength(30);
    expect(batches.length).toBeGreaterThan(1);
    for (const batch of batches)
      expect(new TextEncoder().encode(JSON.stringify(batch)).length).toBeLessThan(MAX_BATCH_BYTES);
    const event = batches[0]![0]!;
    const browsers = Array.from({ length: 6 }, (_, n) => ({ ...event, anonymousId: `browser${n}` }));
    expect(batchesOf(browsers).map((batch) => batch.length)).toEqual([4, 2]);
  });

  it("does nothing when disabled (local development)", async () => {
    const { batches, sink } = recordingSink();
    const analytics = createCollector(options(sink, { enabled: false }));
    analytics.identify("user-1");
    analytics.track("login_failed");
    await analytics.flush();
    expect(batches).toEqual([]);
  });

  it("keeps one anonymous id per browser until reset (logout)", async () => {
    const storage = memoryStorage();
    const { batches, sink } = recordingSink();
    const first = createCollector(options(sink, { storage }));
    first.track("a");
    await first.flush();
    const again = createCollector(options(sink, { storage }));
    again.track("b");
    again.reset();
    again.track("c");
    await again.flush();
    const [a, b, c] = batches.flat();
    expect(b!.anonymousId).toBe(a!.anonymousId);
    expect(c!.anonymousId).not.toBe(a!.anonymousId);
    expect(storage.getItem(ANONYMOUS_ID_KEY)).toBe(c!.anonymousId);
  });

  it("drops a batch the sink refuses and keeps going", async () => {
    const send = vi.fn().mockRejectedValueOnce(new Error("offline")).mockResolvedValue(undefined);
    const analytics = createCollector(options({ send }));
    analytics.track("first");
    await analytics.flush();
    analytics.track("second");
    await analytics.flush();
    expect(send).toHaveBeenCalledTimes(2);
    expect(send.mock.calls[1]![0][0].name).toBe("second");
  });

  it("keeps properties within the contract", () => {
    const many = Object.fromEntries(Array.from({ length: 25 }, (_, n) => [`p${n}`, n]));
    expect(Object.keys(cleanProperties(many))).toHaveLength(20);
    expect(cleanProperties({ "bad name": 1, ok: "x".repeat(600), nan: Number.NaN })).toEqual({ ok: "x".repeat(500) });
  });

  it("keeps what was tracked before it was configured, then sends through the configured sink", async () => {
    const { batches, sink } = recordingSink();
    facade.track("early_event");
    await configureAnalytics({ enabled: true, tenant: "club-a" }, sink);
    facade.track("later_event");
    await facade.flush();
    expect(batches.flat().map((event) => [event.name, event.tenant])).toEqual([
      ["early_event", "club-a"],
      ["later_event", "club-a"],
    ]);
  });
});
