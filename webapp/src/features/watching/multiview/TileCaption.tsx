import { useTranslation } from "react-i18next";
import type { CatalogEvent } from "@/entities/event";
import { useAppConfig } from "@/lib/config";
import { useScoresHidden, useSpoilerSafe } from "@/session/spoilers";
import { useScore } from "../api/score";

/**
 * A tile's title (its number for assistive technology, the event's title) and a live game's score.
 * Spoiler-free mode: no score in the title, and no score asked for or shown, until the viewer
 * reveals this event's.
 */
export function TileCaption({ event: answered, number, id }: { event: CatalogEvent; number: number; id: string }) {
  const { t } = useTranslation("watching");
  const { options } = useAppConfig();
  const event = useSpoilerSafe(answered);
  const scoresHidden = useScoresHidden(answered.id);
  const scored = options.match_stats && answered.statsEnabled && !!answered.teams && answered.isLive;
  const score = useScore(answered.id, scored && !scoresHidden).data;
  return (
    <>
      <h2 id={id} className="mv-tile__title" dir="auto">
        <span className="visually-hidden">{t("multiview.tile.number", { number })} </span>
        {event.title}
      </h2>
      {score && !scoresHidden && (
        <span className="mv-tile__score">
          <span aria-hidden="true">{`${score.home} – ${score.away}`}</span>
          <span className="visually-hidden">{t("multiview.tile.score", { home: score.home, away: score.away })}</span>
        </span>
      )}
    </>
  );
}
