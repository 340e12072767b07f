import { useTranslation } from "react-i18next";
import type { ContinueWatchingItem } from "@/entities/playback";
import { useScoresHidden, useSpoilerSafe } from "@/session/spoilers";
import { formatDuration } from "@/lib/kickoff";
import { EventCard } from "@/ui/catalog/EventCard";
import "./ContinueWatchingCard.css";

interface Props {
  item: ContinueWatchingItem;
  now?: Date;
  /** Takes the video off "Continue watching"; no button without it. */
  onRemove?: (item: ContinueWatchingItem) => void;
  removing?: boolean;
}

/**
 * A "Continue watching" card: the video's card with how much of it the viewer has watched (a bar
 * over the poster's foot) and a button that takes it off the list. The card leads to the event
 * page, which resumes where the viewer stopped.
 */
export function ContinueWatchingCard({ item, now, onRemove, removing = false }: Props) {
  const { t } = useTranslation("following");
  // Spoiler-free: how far along a match the viewer is tells how long it went.
  const lengthHidden = useScoresHidden(item.event.id) && !item.event.isClip;
  const { title } = useSpoilerSafe(item.event);
  const percent = Math.round(item.progress * 100);
  const watched = formatDuration(item.position.position);
  const label = lengthHidden
    ? t("resume.progress_no_total", { watched })
    : t("resume.progress", { watched, total: formatDuration(item.position.duration) });
  return (
    <div className="resume-card">
      <EventCard event={item.event} now={now} />
      {!lengthHidden && (
        <div className="resume-card__overlay" aria-hidden="true">
          <div className="resume-card__track">
            <div className="resume-card__bar" style={{ inlineSize: `${percent}%` }} />
          </div>
        </div>
      )}
      <p className="visually-hidden">{label}</p>
      {onRemove && (
        <button
          type="button"
          className="resume-card__remove"
          title={t("resume.remove_named", { name: title })}
          aria-label={t("resume.remove_named", { name: title })}
          disabled={removing}
          onClick={() => onRemove(item)}
        >
          <svg width="14" height="14" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d="M6 6l12 12M18 6 6 18" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" />
          </svg>
        </button>
      )}
    </div>
  );
}
