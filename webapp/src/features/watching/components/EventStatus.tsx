import { useTranslation } from "react-i18next";
import type { CatalogEvent } from "@/entities/event";
import { formatDateTime, formatDuration } from "@/lib/kickoff";
import "./EventStatus.css";

/** Live now, starts at, played on, or a channel that is always on. */
export function EventStatus({ event }: { event: CatalogEvent }) {
  const { t, i18n } = useTranslation("catalog");
  const when = <time dateTime={event.startsAt.toISOString()}>{formatDateTime(event.startsAt, i18n.language)}</time>;
  if (event.isLive) {
    return (
      <p className="event-status">
        <span className="event-status__live">{t("card.live")}</span> {t("event.started")} {when}
      </p>
    );
  }
  if (event.isChannel) return <p className="event-status">{t("card.channel_always_on")}</p>;
  return (
    <p className="event-status">
      {event.status === "upcoming" ? t("event.starts") : t("event.played")} {when}
      {event.isClip && event.durationSeconds !== null && (
        <span className="event-status__duration">{formatDuration(event.durationSeconds)}</span>
      )}
    </p>
  );
}
