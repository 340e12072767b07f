// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createTokenRenewal, MIN_RENEWAL_GAP_MS, type TokenRenewalHost } from "@/ui/player/tokenRenewal";

const NOW = 1_795_000_000_000;
const seconds = (ms: number) => Math.floor(ms / 1000);
/** A live stream's address with a token expiring `life` ms after NOW (`tag` tells tokens apart). */
const signed = (life: number, tag = "A", stream = "0123456789abcdef01234567") =>
  `/media/live/${stream}/from-1795000000/index.m3u8?token=${seconds(NOW + life)}.${tag.repeat(22)}`;

/** A player that plays `url` and takes what the renewal hands it. */
function player(url: string | null, renew?: () => Promise<string | null>) {
  const state = { playing: url, adopted: [] as string[] };
  const host: TokenRenewalHost = {
    playing: () => state.playing,
    renewSource: () => renew,
    adopt: (next) => {
      state.playing = next;
      state.adopted.push(next);
    },
  };
  return { state, renewal: createTokenRenewal(host) };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

describe("renewing a stream token now", () => {
  it("takes a newer address of the same stream into use", async () => {
    const fresh = signed(120_000, "B");
    const { state, renewal } = player(signed(60_000), async () => fresh);
    await renewal.renewNow();
    expect(state.adopted).toEqual([fresh]);
  });

  it("fails when the answer is no newer, or another stream, and takes nothing", async () => {
    const current = signed(60_000);
    for (const answer of [current, signed(30_000, "B"), signed(120_000, "B", "fedcba9876543210fedcba98"), null]) {
      const { state, renewal } = player(current, async () => answer);
      await expect(renewal.renewNow()).rejects.toThrow("no newer stream address");
      expect(state.adopted).toEqual([]);
    }
  });

  it("asks once for callers at the same time", async () => {
    const renew = vi.fn(async () => signed(120_000, "B"));
    const { renewal } = player(signed(60_000), renew);
    await Promise.all([renewal.renewNow(), renewal.renewNow()]);
    expect(renew).toHaveBeenCalledTimes(1);
  });

  it("drops an answer that comes after another stream started", async () => {
    let answer: (url: string) => void = () => undefined;
    const { state, renewal } = player(signed(60_000), () => new Promise((resolve) => (answer = resolve)));
    const renewing = renewal.renewNow();
    state.playing = signed(60_000, "C", "fedcba9876543210fedcba98");
    answer(signed(120_000, "B"));
    await renewing;
    expect(state.adopted).toEqual([]);
  });

  it("does nothing without a way to renew, or before anything plays", async () => {
    await expect(player(signed(60_000)).renewal.renewNow()).resolves.toBeUndefined();
    const renew = vi.fn(async () => signed(120_000, "B"));
    await player(null, renew).renewal.renewNow();
    expect(renew).not.toHaveBeenCalled();
  });
});

describe("keeping a stream token fresh", () => {
  it("renews a fifth of its life before it expires, then again for the new token", async () => {
    let life = 100_000;
    const renew = vi.fn(async () => signed((life += 100_000), "B"));
    const { state, renewal } = player(signed(100_000), renew);
    const stop = renewal.keepFresh(state.playing!);
    await vi.advanceTimersByTimeAsync(79_000);
    expect(renew).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(renew).toHaveBeenCalledTimes(1);
    expect(state.adopted).toHaveLength(1);
    stop();
    await vi.advanceTimersByTimeAsync(200_000);
    expect(renew).toHaveBeenCalledTimes(1);
  });

  it("tries again after a failure, doubling, while the token lasts", async () => {
    const renew = vi.fn(async (): Promise<string | null> => null);
    const { state, renewal } = player(signed(100_000), renew);
    renewal.keepFresh(state.playing!);
    await vi.advanceTimersByTimeAsync(80_000);
    expect(renew).toHaveBeenCalledTimes(1);
    // The next tries are held at least MIN_RENEWAL_GAP_MS apart (a skewed clock must not loop).
    await vi.advanceTimersByTimeAsync(MIN_RENEWAL_GAP_MS);
    expect(renew).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(MIN_RENEWAL_GAP_MS);
    expect(renew).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(60_000);
    const tries = renew.mock.calls.length;
    // Past the expiry nothing more is tried: only an error and a retry can help then.
    await vi.advanceTimersByTimeAsync(300_000);
    expect(renew).toHaveBeenCalledTimes(tries);
    expect(tries).toBeLessThan(8);
  });

  it("has nothing to do for an address without a token, or without a way to renew", async () => {
    const renew = vi.fn(async () => signed(120_000, "B"));
    player("/media/live/a/index.m3u8", renew).renewal.keepFresh("/media/live/a/index.m3u8");
    const noWay = player(signed(10_000));
    noWay.renewal.keepFresh(noWay.state.playing!);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(renew).not.toHaveBeenCalled();
    expect(noWay.state.adopted).toEqual([]);
  });
});

describe("an address offered by the page", () => {
  it("is the stream playing under a newer token: taken, nothing to load", () => {
    const { state, renewal } = player(signed(60_000));
    const fresh = signed(120_000, "B");
    expect(renewal.offer(fresh)).toBe(true);
    expect(state.adopted).toEqual([fresh]);
  });

  it("is the stream playing under the same or an older token: kept as it is", () => {
    const current = signed(60_000);
    const { state, renewal } = player(current);
    expect(renewal.offer(current)).toBe(true);
    expect(renewal.offer(signed(30_000, "B"))).toBe(true);
    expect(state.adopted).toEqual([]);
  });

  it("is another stream, or the first: to be loaded", () => {
    expect(player(signed(60_000)).renewal.offer(signed(60_000, "A", "fedcba9876543210fedcba98"))).toBe(false);
    expect(player(null).renewal.offer(signed(60_000))).toBe(false);
  });
});
