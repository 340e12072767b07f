import type { EventStats } from "@/entities/stats";

/** A live game's stats refresh while the page is open; a finished game's do not change. */
export const LIVE_STATS_REFRESH_MS = 30_000;

export function statsRefreshInterval(event: { isLive: boolean }): number | false {
  return event.isLive ? LIVE_STATS_REFRESH_MS : false;
}

/** The score to show between the teams, when the stats partner has one. */
export function scoreOf(stats: EventStats | undefined): { home: number; away: number } | undefined {
  return stats?.scores ? { home: stats.scores.home.score, away: stats.scores.away.score } : undefined;
}

export interface ScoreboardRow {
  side: "home" | "away";
  name: string;
  /** One entry per period; a period one side has no score for reads as null. */
  periods: (number | null)[];
  total: number;
}

/** The score by period (quarters, halves, sets), both rows as long as the longer one. */
export function scoreboard(stats: EventStats | undefined): { periods: number; rows: ScoreboardRow[] } | null {
  const scores = stats?.scores;
  if (!scores) return null;
  const periods = Math.max(scores.home.periods.length, scores.away.periods.length);
  const row = (side: "home" | "away"): ScoreboardRow => ({
    side,
    name: scores[side].name,
    periods: Array.from({ length: periods }, (_, index) => scores[side].periods[index] ?? null),
    total: scores[side].score,
  });
  return { periods, rows: [row("home"), row("away")] };
}

/** The translation (event namespace, `stats.periods.*`) of a period's column heading. */
export interface PeriodLabel {
  key: "first_half" | "second_half" | "set" | "quarter" | "period" | "overtime";
  number: number;
}

/**
 * What a period is called in the game's sport: football has halves, volleyball sets, basketball
 * quarters and ice hockey periods; a period past the regular ones is overtime (basketball, hockey).
 * Other sports number their periods.
 */
export function periodLabel(sportType: string | null | undefined, index: number): PeriodLabel {
  const number = index + 1;
  switch (sportType) {
    case "football":
      if (index === 0) return { key: "first_half", number };
      if (index === 1) return { key: "second_half", number };
      return { key: "overtime", number };
    case "volleyball":
      return { key: "set", number };
    case "basketball":
      return index < 4 ? { key: "quarter", number } : { key: "overtime", number };
    case "ice-hockey":
      return index < 3 ? { key: "period", number } : { key: "overtime", number };
    default:
      return { key: "period", number };
  }
}
