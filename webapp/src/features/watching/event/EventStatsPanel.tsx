import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { EventStats } from "@/entities/stats";
import type { CatalogEvent } from "@/entities/event";
import { StatBars } from "../components/StatBars";
import { periodLabel, scoreboard } from "./statsView";

function Scoreboard({ stats, sportType }: { stats: EventStats; sportType: string | null }) {
  const { t } = useTranslation("event");
  const board = scoreboard(stats);
  if (!board || board.periods < 2) return null;
  return (
    <table className="event-scoreboard">
      <caption className="visually-hidden">{t("stats.by_period")}</caption>
      <thead>
        <tr>
          <th scope="col">
            <span className="visually-hidden">{t("stats.team")}</span>
          </th>
          {Array.from({ length: board.periods }, (_, index) => (
            <th key={index} scope="col">
              {(({ key, number }) => t(`stats.periods.${key}`, { number }))(periodLabel(sportType, index))}
            </th>
          ))}
          <th scope="col">{t("stats.total")}</th>
        </tr>
      </thead>
      <tbody>
        {board.rows.map((row) => (
          <tr key={row.side}>
            <th scope="row" dir="auto">
              {row.name}
            </th>
            {row.periods.map((value, index) => (
              <td key={index}>{value ?? "–"}</td>
            ))}
            <td className="event-scoreboard__total">{row.total}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The game overview (spec §3 "Stats"): the score by period and the metrics as home-versus-away
 * bars. Nothing is shown while there is nothing to show: stats that fail to load read as empty
 * (spec §8).
 */
export function EventStatsPanel({ event, stats }: { event: CatalogEvent; stats: EventStats | undefined }) {
  const { t } = useTranslation("event");
  const headingId = useId();
  if (!stats || (stats.metrics.length === 0 && !stats.scores)) return null;
  const teams = event.teams;
  const style = teams
    ? ({ "--home-color": teams.home.color, "--away-color": teams.away.color } as React.CSSProperties)
    : undefined;
  return (
    <section className="event-panel event-stats" aria-labelledby={headingId} style={style}>
      <h2 id={headingId} className="event-panel__title">
        {/* The partner names its group in English ("Match stats"): the heading is ours, translated. */}
        {t("stats.title")}
        {event.isLive && <span className="event-stats__live">{t("stats.live")}</span>}
      </h2>
      <Scoreboard stats={stats} sportType={event.sportType} />
      {stats.metrics.length > 0 && (
        <StatBars
          metrics={stats.metrics}
          homeName={teams?.home.name ?? t("stats.home")}
          awayName={teams?.away.name ?? t("stats.away")}
        />
      )}
    </section>
  );
}
