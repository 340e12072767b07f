import type { ReactNode } from "react";
import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { eventPath, type CatalogEvent } from "@/entities/event";
import { useLocalePath } from "@/i18n/useLocalePath";
import { useSpoilerSafe } from "@/session/spoilers";
import { FallbackImage } from "@/ui/images/FallbackImage";

/** One event as a tile linking to its page: poster, live badge, league, title, kick-off. */
export function EventTile({ event: listed, action }: { event: CatalogEvent; action?: ReactNode }) {
  const event = useSpoilerSafe(listed);
  const { t, i18n } = useTranslation("following");
  const localePath = useLocalePath();
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" }).format(
    event.startsAt,
  );
  const meta = event.metaTitle ?? event.league?.title ?? event.category?.title ?? null;
  return (
    <li className="event-tile">
      <Link className="event-tile__link" to={localePath(eventPath(event))}>
        <span className="event-tile__media">
          <FallbackImage
            className="event-tile__poster"
            src={event.posterUrl}
            alt=""
            fallback="banner"
            width={640}
            height={360}
          />
          {event.isLive && <span className="event-tile__badge">{t("event.live")}</span>}
        </span>
        {meta && (
          <span className="event-tile__meta" dir="auto">
            {meta}
          </span>
        )}
        <span className="event-tile__title" dir="auto">
          {event.title}
        </span>
        <time className="event-tile__when" dateTime={event.startsAt.toISOString()}>
          {when}
        </time>
      </Link>
      {action}
    </li>
  );
}
