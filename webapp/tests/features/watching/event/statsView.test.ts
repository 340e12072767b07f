// @vitest-environment node
import { describe, expect, it } from "vitest";
import { mapEventStats } from "@/entities/stats";
import {
  LIVE_STATS_REFRESH_MS,
  periodLabel,
  scoreboard,
  scoreOf,
  statsRefreshInterval,
} from "@/features/watching/event/statsView";

const stats = (home: number[], away: number[]) =>
  mapEventStats({
    vidswap: {
      "game-scores": {
        homeTeam: { name: "Harbor City Mariners", score: 3, periods: home },
        awayTeam: { name: "Riverside Rovers", score: 2, periods: away },
      },
      "game-overview": { groups: [{ name: "Match stats", metrics: [] }] },
    },
  });

describe("the event page's stats", () => {
  it("refresh while the game is live, and not after", () => {
    expect(statsRefreshInterval({ isLive: true })).toBe(LIVE_STATS_REFRESH_MS);
    expect(statsRefreshInterval({ isLive: false })).toBe(false);
  });

  it("put the partner's score between the teams, and nothing without one", () => {
    expect(scoreOf(stats([1, 2], [2, 0]))).toEqual({ home: 3, away: 2 });
    expect(scoreOf(mapEventStats({ vidswap: {} }))).toBeUndefined();
    expect(scoreOf(undefined)).toBeUndefined();
  });

  it("line the periods up, marking those one side has no score for", () => {
    expect(scoreboard(stats([1, 1, 1], [2, 0]))).toEqual({
      periods: 3,
      rows: [
        { side: "home", name: "Harbor City Mariners", periods: [1, 1, 1], total: 3 },
        { side: "away", name: "Riverside Rovers", periods: [2, 0, null], total: 2 },
      ],
    });
    expect(scoreboard(mapEventStats({ vidswap: {} }))).toBeNull();
  });
});

describe("period labels", () => {
  const labels = (sport: string | null, count: number) =>
    Array.from({ length: count }, (_, index) => {
      const { key, number } = periodLabel(sport, index);
      return key === "first_half" || key === "second_half" || key === "overtime" ? key : `${key} ${number}`;
    });

  it("calls football's periods halves", () => {
    expect(labels("football", 2)).toEqual(["first_half", "second_half"]);
  });

  it("numbers volleyball's sets, basketball's quarters and ice hockey's periods, then overtime", () => {
    expect(labels("volleyball", 5)).toEqual(["set 1", "set 2", "set 3", "set 4", "set 5"]);
    expect(labels("basketball", 5)).toEqual(["quarter 1", "quarter 2", "quarter 3", "quarter 4", "overtime"]);
    expect(labels("ice-hockey", 4)).toEqual(["period 1", "period 2", "period 3", "overtime"]);
  });

  it("numbers the periods of other sports", () => {
    expect(labels(null, 2)).toEqual(["period 1", "period 2"]);
  });
});
