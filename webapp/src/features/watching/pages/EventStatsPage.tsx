import { Link, useParams } from "react-router";
import { useTranslation } from "react-i18next";
import { ApiError } from "@/api/client";
import { useAppConfig } from "@/lib/config";
import type { CatalogEvent } from "@/entities/event";
import { useLocalePath } from "@/i18n/useLocalePath";
import { useScoresHidden, useSpoilerSafe } from "@/session/spoilers";
import { useDocumentTitle } from "@/ui/useDocumentTitle";
import { useEvent } from "../api/getEvent";
import { useEventStats } from "../api/getEventStats";
import { EventStatus } from "../components/EventStatus";
import { EventTeams } from "../components/EventTeams";
import { StatBars, StatBarsSkeleton } from "../components/StatBars";
import { EmptyState, ErrorState, LoadingNote } from "@/ui/catalog/States";
import { SpoilerSwitch } from "../event/SpoilerSwitch";
import { useEntityOrNotFound } from "@/lib/useEntityOrNotFound";
import "@/ui/catalog/CatalogPage.css";
import "./EventPage.css";

function Stats({ event }: { event: CatalogEvent }) {
  const { t } = useTranslation(["catalog", "stats"]);
  // Stats are shown only where the app offers them and the event has a stats partner feed.
  const offered = useAppConfig().options.match_stats && event.statsEnabled;
  // Spoiler-free: the score and the stats only after "Show score".
  const hidden = useScoresHidden(event.id);
  const stats = useEventStats(event.id, offered && !hidden);
  const teams = event.teams;

  if (!offered) return <EmptyState>{t("stats:unavailable")}</EmptyState>;
  if (hidden) return <SpoilerSwitch eventId={event.id} />;
  if (stats.isPending) {
    return (
      <>
        <LoadingNote />
        <StatBarsSkeleton />
      </>
    );
  }
  if (stats.isError) {
    // A game without partner data is not an error for the viewer (404 stats_not_found).
    if (stats.error instanceof ApiError && stats.error.status === 404)
      return <EmptyState>{t("stats:none")}</EmptyState>;
    return <ErrorState error={stats.error} onRetry={() => void stats.refetch()} />;
  }
  const { scores, metrics } = stats.data;
  const style = teams
    ? ({ "--home-color": teams.home.color, "--away-color": teams.away.color } as React.CSSProperties)
    : undefined;
  return (
    <div style={style}>
      {teams && (
        <EventTeams teams={teams} score={scores ? { home: scores.home.score, away: scores.away.score } : undefined} />
      )}
      {metrics.length === 0 ? (
        <EmptyState>{t("stats:none")}</EmptyState>
      ) : (
        <section className="catalog-section" aria-labelledby="stats-group">
          <h2 id="stats-group" className="catalog-section__title">
            {t("event.match_stats")}
          </h2>
          <StatBars
            metrics={metrics}
            homeName={teams?.home.name ?? t("event.home")}
            awayName={teams?.away.name ?? t("event.away")}
          />
        </section>
      )}
    </div>
  );
}

function StatsHeader({ event: answered }: { event: CatalogEvent }) {
  const event = useSpoilerSafe(answered);
  const { t } = useTranslation(["catalog", "stats"]);
  const localePath = useLocalePath();
  useDocumentTitle(t("stats:title", { title: event.title }));
  return (
    <header className="catalog-page__header">
      <p className="event-page__meta">
        <Link to={localePath(`/events/${encodeURIComponent(event.id)}`)}>{t("stats:back_to_event")}</Link>
      </p>
      <h1 className="page__title">{t("stats:title", { title: event.title })}</h1>
      <EventStatus event={event} />
    </header>
  );
}

/** /events/stats/:eventId: the score and the match stats, home against away. */
export default function EventStatsPage() {
  const { eventId = "" } = useParams();
  const query = useEntityOrNotFound(useEvent({ id: eventId }), "event");
  return (
    <div className="page catalog-page">
      {query.isPending ? (
        <>
          <LoadingNote />
          <StatBarsSkeleton />
        </>
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <>
          <StatsHeader event={query.data} />
          <Stats event={query.data} />
        </>
      )}
    </div>
  );
}
