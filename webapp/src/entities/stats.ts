import type { components } from "@/api/schema.gen";

/** The stats partner's answer for one game (GET /event/stats). */
export type ApiEventStats = components["schemas"]["EventStatsResponse"]["content"];
type ApiStatValue = components["schemas"]["StatValue"];

export interface StatSide {
  /** As the partner writes it ("54%", "12"). */
  text: string;
  value: number;
  /** Bar length from 0 to 1. */
  ratio: number;
}

/** One row of the match stats: home versus away (spec §3 "Stats"). */
export interface StatMetric {
  id: string;
  name: string;
  shortName: string;
  /** Values ending in % are percentages with a maximum of 100. */
  isPercentage: boolean;
  /** What a full bar stands for: 100 for percentages, else both teams' total. */
  max: number;
  home: StatSide;
  away: StatSide;
}

export interface TeamScoreLine {
  name: string;
  score: number;
  periods: number[];
}

export interface EventStats {
  scores: { home: TeamScoreLine; away: TeamScoreLine } | null;
  /** The first group's title ("Match stats"). */
  groupName: string | null;
  metrics: StatMetric[];
}

export function isPercentageText(text: string): boolean {
  return text.trim().endsWith("%");
}

function clampRatio(value: number, max: number): number {
  if (!(max > 0) || !Number.isFinite(value)) return 0;
  return Math.min(1, Math.max(0, value / max));
}

function valueOf(stat: ApiStatValue): number {
  if (Number.isFinite(stat.number)) return stat.number;
  const parsed = Number.parseFloat(stat.text);
  return Number.isFinite(parsed) ? parsed : 0;
}

export function mapStatMetric(metric: {
  shortName: string;
  name: string;
  filterId: string;
  homeTeamValue: ApiStatValue;
  awayTeamValue: ApiStatValue;
}): StatMetric {
  const isPercentage = isPercentageText(metric.homeTeamValue.text) || isPercentageText(metric.awayTeamValue.text);
  const home = valueOf(metric.homeTeamValue);
  const away = valueOf(metric.awayTeamValue);
  const max = isPercentage ? 100 : Math.max(0, home) + Math.max(0, away);
  return {
    id: metric.filterId,
    name: metric.name,
    shortName: metric.shortName,
    isPercentage,
    max,
    home: { text: metric.homeTeamValue.text, value: home, ratio: clampRatio(home, max) },
    away: { text: metric.awayTeamValue.text, value: away, ratio: clampRatio(away, max) },
  };
}

function scoreLine(team: components["schemas"]["TeamScore"]): TeamScoreLine {
  return { name: team.name, score: team.score, periods: [...(team.periods ?? [])] };
}

/** The one API → UI mapping of match stats: groups[0].metrics and the score. */
export function mapEventStats(api: ApiEventStats): EventStats {
  const scores = api.vidswap["game-scores"];
  const group = api.vidswap["game-overview"]?.groups[0];
  return {
    scores:
      scores?.homeTeam && scores.awayTeam
        ? { home: scoreLine(scores.homeTeam), away: scoreLine(scores.awayTeam) }
        : null,
    groupName: group?.name ?? null,
    metrics: (group?.metrics ?? []).map(mapStatMetric),
  };
}
