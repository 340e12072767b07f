// @vitest-environment node
import { describe, expect, it } from "vitest";
import { mapEventStats, mapStatMetric } from "@/entities/stats";

const metric = (home: string, away: string) => ({
  shortName: "POS",
  name: "Possession",
  filterId: "possession",
  homeTeamValue: { text: home, number: Number.parseFloat(home) },
  awayTeamValue: { text: away, number: Number.parseFloat(away) },
});

describe("mapStatMetric", () => {
  it("treats values ending in % as percentages with a maximum of 100", () => {
    const stat = mapStatMetric(metric("89.9%", "74.4%"));
    expect(stat.isPercentage).toBe(true);
    expect(stat.max).toBe(100);
    expect(stat.home).toEqual({ text: "89.9%", value: 89.9, ratio: 0.899 });
    expect(stat.away.ratio).toBeCloseTo(0.744);
  });

  it("compares other values against both teams' total", () => {
    const stat = mapStatMetric(metric("3", "1"));
    expect(stat.isPercentage).toBe(false);
    expect(stat.max).toBe(4);
    expect(stat.home.ratio).toBe(0.75);
    expect(stat.away.ratio).toBe(0.25);
  });

  it("draws empty bars when both teams have nothing", () => {
    const stat = mapStatMetric(metric("0", "0"));
    expect([stat.home.ratio, stat.away.ratio]).toEqual([0, 0]);
  });

  it("never draws a percentage bar past its end", () => {
    expect(mapStatMetric(metric("120%", "0%")).home.ratio).toBe(1);
  });
});

describe("mapEventStats", () => {
  it("reads groups[0].metrics and the score", () => {
    const stats = mapEventStats({
      vidswap: {
        "game-scores": {
          homeTeam: { name: "Ashford Town", score: 1, periods: [1] },
          awayTeam: { name: "Port Sable Albion", score: 0, periods: [0] },
        },
        "game-overview": {
          groups: [
            { name: "Match stats", metrics: [metric("36%", "64%")] },
            { name: "Other", metrics: [metric("1", "2"), metric("3", "4")] },
          ],
        },
      },
    });
    expect(stats.scores).toEqual({
      home: { name: "Ashford Town", score: 1, periods: [1] },
      away: { name: "Port Sable Albion", score: 0, periods: [0] },
    });
    expect(stats.groupName).toBe("Match stats");
    expect(stats.metrics.map((m) => m.home.text)).toEqual(["36%"]);
  });

  it("has no metrics when the partner sent no overview", () => {
    expect(mapEventStats({ vidswap: {} })).toEqual({ scores: null, groupName: null, metrics: [] });
  });
});
