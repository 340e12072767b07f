import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { UseQueryResult } from "@tanstack/react-query";
import { accessOf, type CatalogEvent } from "@/entities/event";
import { useSpoilerSafe } from "@/session/spoilers";
import { FallbackImage } from "@/ui/images/FallbackImage";
import { FailedNote } from "./FailedNote";

/**
 * The live events as a list, each with its poster, title, league and whether the viewer may watch
 * it; `action` gives each its control (a button to add it, a link to its page), with the event as
 * the viewer may see it (spoiler-free mode). The events `first` names lead. Says when the list is
 * loading, failed (with a retry) or empty.
 */
export function LiveEventList({
  query,
  label,
  first = [],
  action,
}: {
  query: UseQueryResult<CatalogEvent[]>;
  label: string;
  first?: readonly string[];
  action: (event: CatalogEvent) => ReactNode;
}) {
  const { t } = useTranslation("watching");
  if (query.isPending)
    return (
      <p className="mv-list__note" role="status">
        {t("multiview.loading")}
      </p>
    );
  if (query.isError)
    return (
      <FailedNote
        className="mv-list__note"
        message={t("multiview.picker.failed")}
        onRetry={() => void query.refetch()}
      />
    );
  if (!query.data.length) return <p className="mv-list__note">{t("multiview.picker.empty")}</p>;
  const leading = (event: CatalogEvent) => (first.includes(event.id) ? 0 : 1);
  const events = [...query.data].sort((a, b) => leading(a) - leading(b));
  return (
    <ul className="mv-list" aria-label={label}>
      {events.map((event) => (
        <LiveEventItem key={event.id} event={event} action={action} />
      ))}
    </ul>
  );
}

function LiveEventItem({ event: listed, action }: { event: CatalogEvent; action: (event: CatalogEvent) => ReactNode }) {
  const { t } = useTranslation("watching");
  const event = useSpoilerSafe(listed);
  const access = accessOf(event).kind;
  const meta = event.league?.title ?? event.category?.title;
  return (
    <li className="mv-list__item">
      <FallbackImage
        className="mv-list__poster"
        src={event.posterUrl}
        alt=""
        fallback="banner"
        width={96}
        height={54}
      />
      <span className="mv-list__text">
        <span className="mv-list__title" dir="auto">
          {event.title}
        </span>
        <span className="mv-list__meta">
          {meta && <span dir="auto">{meta}</span>}
          {access !== "available" && (
            <span className="mv-list__locked">
              {t(access === "region" ? "multiview.picker.not_here" : "multiview.picker.locked")}
            </span>
          )}
        </span>
      </span>
      {action(event)}
    </li>
  );
}
