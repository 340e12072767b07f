// @vitest-environment node
import { describe, expect, it } from "vitest";
import { exposeProbe, type ProbeHost, type ProbedHls } from "@/ui/player/probe";

const PDT = Date.UTC(2026, 4, 9, 15, 0, 0);

function fakeHls(fields: Partial<ProbedHls> = {}): ProbedHls {
  return { playingDate: new Date(PDT), latency: 6.5, targetLatency: 6, ...fields };
}

describe("the player's probe for the benchmark and e2e tests", () => {
  it("is not there unless the page asked for it", () => {
    const host: ProbeHost = {};
    exposeProbe(host, fakeHls());
    expect(host.__touchlinePlayer).toBeUndefined();
    expect(Object.keys(host)).toEqual([]);
  });

  it("reads hls.js's program date-time of the frame on screen, as epoch ms, and its latencies", () => {
    const host: ProbeHost = { __touchlineProbe: true };
    const hls: { playingDate: Date | null; latency: number; targetLatency: number | null } = fakeHls();
    exposeProbe(host, hls);
    expect(host.__touchlinePlayer?.playingDate()).toBe(PDT);
    expect(host.__touchlinePlayer?.latency()).toBe(6.5);
    expect(host.__touchlinePlayer?.targetLatency()).toBe(6);
    // Read when asked, not when installed.
    hls.playingDate = new Date(PDT + 1_000);
    expect(host.__touchlinePlayer?.playingDate()).toBe(PDT + 1_000);
  });

  it("says null before the frame's date is known", () => {
    const host: ProbeHost = { __touchlineProbe: true };
    exposeProbe(host, fakeHls({ playingDate: null, latency: NaN, targetLatency: null }));
    expect(host.__touchlinePlayer?.playingDate()).toBeNull();
    expect(host.__touchlinePlayer?.latency()).toBeNull();
    expect(host.__touchlinePlayer?.targetLatency()).toBeNull();
  });

  it("goes with its engine's stream, and never takes away a newer engine's", () => {
    const host: ProbeHost = { __touchlineProbe: true };
    const removeFirst = exposeProbe(host, fakeHls());
    const removeSecond = exposeProbe(host, fakeHls({ playingDate: new Date(PDT + 5_000) }));
    removeFirst();
    expect(host.__touchlinePlayer?.playingDate()).toBe(PDT + 5_000);
    removeSecond();
    expect(host.__touchlinePlayer).toBeUndefined();
  });
});
