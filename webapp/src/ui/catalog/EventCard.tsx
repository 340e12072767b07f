import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { accessOf, eventPath, type CatalogEvent, type EventTeam } from "@/entities/event";
import { useLocalePath } from "@/i18n/useLocalePath";
import { useSpoilerSafe } from "@/session/spoilers";
import { FallbackImage } from "../images/FallbackImage";
import { formatDay, formatDuration, formatTime } from "@/lib/kickoff";
import { useAccessLabel } from "./useAccessLabel";
import { LockIcon } from "./icons";
import "./EventCard.css";

interface Props {
  event: CatalogEvent;
  /** The clock and zone to show kick-offs in; the browser's by default. */
  now?: Date;
  timeZone?: string;
  /** In view when the page opens: load the poster eagerly, with high priority. */
  priority?: boolean;
  /** The title's heading level: 2 in a page's main list, 3 under a section's own heading. */
  headingLevel?: 2 | 3;
}

function TeamLine({ team }: { team: EventTeam }) {
  return (
    <span className="event-card__team" style={{ "--team-color": team.color } as React.CSSProperties}>
      <FallbackImage className="event-card__logo" src={team.logoUrl} alt="" fallback="generic" width={28} height={28} />
      <span className="event-card__team-name" dir="auto">
        {team.name}
      </span>
    </span>
  );
}

/** The kick-off as the card shows it: "Today, 19:30" in the viewer's locale and zone. */
export function useKickoffText(event: CatalogEvent, now: Date, timeZone?: string): string {
  const { t, i18n } = useTranslation("catalog");
  const locale = i18n.language;
  if (event.isChannel) return t("card.channel_always_on");
  return t("card.kickoff", {
    day: formatDay(event.startsAt, locale, now, timeZone),
    time: formatTime(event.startsAt, locale, timeZone),
  });
}

/**
 * One event, highlight or clip: poster, live badge, title, teams, kick-off, league and what
 * it takes to watch. The whole card is one link to the event page.
 */
export function EventCard({ event: listed, now = new Date(), timeZone, priority = false, headingLevel = 3 }: Props) {
  const event = useSpoilerSafe(listed);
  const Title = headingLevel === 2 ? "h2" : "h3";
  const { t } = useTranslation("catalog");
  const localePath = useLocalePath();
  const when = useKickoffText(event, now, timeZone);
  const access = accessOf(event);
  const accessLabel = useAccessLabel(access);
  const meta = event.metaTitle ?? event.league?.title ?? null;

  return (
    // Named by its own text (badge, title, teams, kick-off), so speech and sight say the same.
    <Link className="event-card" to={localePath(eventPath(event))}>
      <div className="event-card__media">
        <FallbackImage
          className="event-card__poster"
          src={event.posterUrl}
          alt=""
          fallback="banner"
          width={640}
          height={360}
          // Cards in view on arrival are fetched at once: the first poster is the page's largest paint.
          {...(priority && { loading: "eager", fetchPriority: "high" })}
        />
        {event.isLive && <span className="event-card__badge event-card__badge--live">{t("card.live")}</span>}
        {event.isChannel && <span className="event-card__badge">{t("card.channel")}</span>}
        {event.isClip && event.durationSeconds !== null && (
          <span className="event-card__duration">{formatDuration(event.durationSeconds)}</span>
        )}
        {accessLabel && (
          <span className={`event-card__access event-card__access--${access.kind}`}>
            <LockIcon />
            {accessLabel}
          </span>
        )}
      </div>
      <div className="event-card__body">
        {meta && (
          <p className="event-card__meta" dir="auto">
            {meta}
          </p>
        )}
        <Title className="event-card__title" dir="auto">
          {event.title}
        </Title>
        {event.teams && (
          <p className="event-card__teams">
            <TeamLine team={event.teams.home} />
            <TeamLine team={event.teams.away} />
          </p>
        )}
        <p className="event-card__when">
          <time dateTime={event.startsAt.toISOString()}>{when}</time>
          {event.gender && <span className="event-card__chip">{t(`gender.${event.gender}`)}</span>}
        </p>
      </div>
    </Link>
  );
}

/** Same footprint as a card, shown while a list loads. */
export function EventCardSkeleton() {
  return (
    <div className="event-card event-card--skeleton" aria-hidden="true">
      <div className="event-card__media" />
      <div className="event-card__body">
        <span className="event-card__line event-card__line--short" />
        <span className="event-card__line" />
        <span className="event-card__line event-card__line--short" />
      </div>
    </div>
  );
}
