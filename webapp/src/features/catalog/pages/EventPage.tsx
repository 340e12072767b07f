import { Link, useParams, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { useAppConfig } from "@/lib/config";
import { isClipMediaType, type CatalogEvent } from "@/entities/event";
import { useLocalePath } from "@/i18n/useLocalePath";
import { FallbackImage } from "@/ui/images/FallbackImage";
import { useDocumentTitle } from "@/ui/useDocumentTitle";
import { useEvent } from "../api/getEvent";
import { useRelatedVideos } from "../api/getRelatedVideos";
import { EventAvailability } from "../components/EventAvailability";
import { EventCard, EventCardSkeleton } from "../components/EventCard";
import { EventPageSkeleton } from "../components/EventPageSkeleton";
import { EventStatus } from "../components/EventStatus";
import { EventTeams } from "../components/EventTeams";
import { Rail } from "../components/Rail";
import { ErrorState, LoadingNote } from "../components/States";
import { useEntityOrNotFound } from "../lib/useEntityOrNotFound";
import { useLogFailure } from "../lib/useLogFailure";
import "./EventPage.css";

const eventKey = (event: CatalogEvent) => event.id;

function RelatedVideos({ event }: { event: CatalogEvent }) {
  const { t } = useTranslation("catalog");
  const related = useRelatedVideos(event.id, !event.isChannel);
  const now = new Date();
  useLogFailure(related.error, "Related videos");
  if (related.isError) return null;
  return (
    <Rail
      title={t("event.related")}
      query={related}
      items={related.data?.filter((item) => item.id !== event.id)}
      itemKey={eventKey}
      renderItem={(item) => <EventCard event={item} now={now} />}
      skeleton={<EventCardSkeleton />}
    />
  );
}

function EventDetails({ event }: { event: CatalogEvent }) {
  const { t } = useTranslation("catalog");
  const localePath = useLocalePath();
  const config = useAppConfig();
  useDocumentTitle(event.title);
  const showStats = event.statsEnabled && config.options.match_stats && !!event.teams;

  return (
    <article className="event-page">
      <div className="event-page__hero">
        <FallbackImage
          className="event-page__poster"
          src={event.posterUrl}
          alt=""
          fallback="banner"
          width={1280}
          height={720}
          loading="eager"
        />
      </div>
      <div className="event-page__main">
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
        {event.teams && <EventTeams teams={event.teams} />}
        {event.description && (
          <p className="event-page__description" dir="auto">
            {event.description}
          </p>
        )}
        <EventAvailability event={event} />
        {(showStats || event.isChannel || event.isClip) && (
          <nav className="event-page__links" aria-label={t("event.more")}>
            {showStats && (
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
          </nav>
        )}
      </div>
      <RelatedVideos event={event} />
    </article>
  );
}

/**
 * /events/:eventId (?media_type=highlight for highlights and clips): poster, title, teams,
 * kick-off or live status, league, description and whether the viewer may watch.
 */
export default function EventPage() {
  const { eventId = "" } = useParams();
  const [search] = useSearchParams();
  const requested = search.get("media_type");
  const mediaType = isClipMediaType(requested) ? requested : undefined;
  const query = useEntityOrNotFound(useEvent({ id: eventId, mediaType }), mediaType ? "clip" : "event");

  return (
    <div className="page">
      {query.isPending ? (
        <>
          <LoadingNote />
          <EventPageSkeleton />
        </>
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <EventDetails event={query.data} />
      )}
    </div>
  );
}
