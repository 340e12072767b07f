import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { accessOf, type CatalogEvent } from "@/entities/event";
import type { EventStats } from "@/entities/stats";
import { useLocalePath } from "@/i18n/useLocalePath";
import { EventStatus } from "../components/EventStatus";
import { EventTeams } from "../components/EventTeams";
import { Countdown } from "./Countdown";
import { scoreOf } from "./statsView";

/** The server's iCalendar file of one event (openapi.yaml `get_event_calendar`). */
export const eventCalendarPath = (id: string) => `/api/event/calendar/${encodeURIComponent(id)}.ics`;

// Kick-off passing changes nothing here: the page asks for the event again then (EventPage).
const noop = () => undefined;

/** Title, league and category, status, teams with the score, description and links. */
export function EventDetails({
  event,
  stats,
  statsOffered,
}: {
  event: CatalogEvent;
  stats: EventStats | undefined;
  statsOffered: boolean;
}) {
  const { t } = useTranslation(["catalog", "event"]);
  const localePath = useLocalePath();
  const upcoming = event.status === "upcoming";
  const available = accessOf(event).kind === "available";
  const free = event.commerceType === "commerce_free_media" || event.commerceCoverage.includes("free");

  return (
    <>
      <p className="event-page__meta">
        {event.league && (
          <Link to={localePath(`/league/${encodeURIComponent(event.league.id)}`)} dir="auto">
            {event.league.title}
          </Link>
        )}
        {event.league && event.category && " · "}
        {event.category && (
          <Link to={localePath(`/category/${encodeURIComponent(event.category.id)}`)} dir="auto">
            {event.category.title}
          </Link>
        )}
        {event.gender && <span className="event-page__chip">{t(`gender.${event.gender}`)}</span>}
      </p>
      <h1 className="event-page__title" dir="auto">
        {event.title}
      </h1>
      <EventStatus event={event} />
      {/* Where the stage shows no countdown (it shows the paywall instead), the page does. */}
      {event.status === "upcoming" && !available && (
        <Countdown startsAt={event.startsAt} startingSoon={false} onElapsed={noop} />
      )}
      {event.teams && <EventTeams teams={event.teams} score={scoreOf(stats)} />}
      {event.description && (
        <p className="event-page__description" dir="auto">
          {event.description}
        </p>
      )}
      {available && <p className="event-page__access">{free ? t("availability.free") : t("availability.included")}</p>}
      {(statsOffered || event.isChannel || event.isClip || upcoming) && (
        <nav className="event-page__links" aria-label={t("event.more")}>
          {statsOffered && (
            <Link className="btn" to={localePath(`/events/stats/${encodeURIComponent(event.id)}`)}>
              {t("event.match_stats")}
            </Link>
          )}
          {event.isChannel && (
            <Link className="btn" to={localePath(`/channels/${encodeURIComponent(event.id)}`)}>
              {t("channel.programme")}
            </Link>
          )}
          {event.isClip && (
            <Link className="btn" to={localePath(`/events/${encodeURIComponent(event.eventId)}`)}>
              {t("event.full_game")}
            </Link>
          )}
          {upcoming && (
            // The event as an iCalendar file (issue 31 §4): any calendar app adds it.
            <a className="btn" href={eventCalendarPath(event.id)} download>
              {t("event:add_to_calendar")}
            </a>
          )}
        </nav>
      )}
    </>
  );
}
