import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { hideScoresAgain, revealScores, useScoresHidden, useSpoilerFree } from "@/session/spoilers";

/**
 * The event page's own choice in spoiler-free mode: "Show score" takes a deliberate press, and
 * holds for this event in this tab; "Hide score" goes back. Nothing outside the mode.
 */
export function SpoilerSwitch({ eventId }: { eventId: string }) {
  const { t } = useTranslation("event");
  const on = useSpoilerFree();
  const hidden = useScoresHidden(eventId);
  const client = useQueryClient();
  if (!on) return null;
  return (
    <p className="event-page__spoilers">
      {hidden ? (
        <>
          <span>{t("spoilers.hidden")}</span>{" "}
          <button type="button" className="btn btn--small" onClick={() => revealScores(eventId, client)}>
            {t("spoilers.show")}
          </button>
        </>
      ) : (
        <button type="button" className="btn btn--small" onClick={() => hideScoresAgain(eventId, client)}>
          {t("spoilers.hide")}
        </button>
      )}
    </p>
  );
}
