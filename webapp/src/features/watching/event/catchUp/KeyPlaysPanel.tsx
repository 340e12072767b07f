import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { isApiError } from "@/api/client";
import { formatDuration } from "@/lib/kickoff";
import { useLogFailure } from "@/lib/useLogFailure";
import { usePlayerControls } from "../playerControls";
import { usePlayedSeconds } from "../streamClock";
import { NO_CATCH_UP, catchUpQuery, fetchCatchUp } from "./catchUpQuery";
import { playingKeyPlay, visibleKeyPlays } from "./keyPlays";

/**
 * Catch up, then live (issue 31 §2): a live event's key plays so far, each a seek target in the
 * live stream, and "Catch up", which plays them one after the other (one playlist the server cuts
 * from the live stream) and then joins the live edge by itself. The list follows the tags staff and
 * the data partner add (`tags-change`, useEventRealtime).
 */
export function KeyPlaysPanel({ eventId, scoresHidden }: { eventId: string; scoresHidden: boolean }) {
  const { t } = useTranslation("event");
  const titleId = useId();
  const queryClient = useQueryClient();
  const controls = usePlayerControls();
  const catchUp = useQuery(catchUpQuery(eventId));
  // 409 catch_up_unavailable: nothing played yet, or a stream of another host.
  useLogFailure(isApiError(catchUp.error, NO_CATCH_UP) ? null : catchUp.error, "Catch-up");
  // The clock reports what plays: the catch-up's own time while it plays, the event's after.
  const clockTime = usePlayedSeconds(controls.clock, scoresHidden || controls.reelPlaying);
  const reelTime = controls.reelPlaying ? (controls.reelTime() ?? clockTime) : null;
  const played = controls.reelPlaying ? null : clockTime;
  const plays = catchUp.data?.keyPlays ?? [];
  const shown = visibleKeyPlays(plays, { scoresHidden, played, reelTime });
  const current = playingKeyPlay(plays, reelTime);

  const start = async () => {
    // The key plays up to now, not those of when the page loaded.
    const fresh = await queryClient.fetchQuery({ ...catchUpQuery(eventId), staleTime: 0 });
    if (!fresh.url) return;
    const path = fresh.url.split("?")[0];
    // A fresh token for the same playlist; a new key play since makes another one, played next time.
    const renew = async () => {
      const again = await fetchCatchUp(eventId);
      return again.url && again.url.split("?")[0] === path ? again.url : null;
    };
    controls.playReel({ url: fresh.url, renew });
  };

  return (
    <section className="event-panel key-plays" aria-labelledby={titleId}>
      <h2 id={titleId} className="event-panel__title">
        {t("catch_up.title")}
      </h2>
      {controls.reelPlaying ? (
        <div className="key-plays__status" role="status">
          <p>
            {current
              ? t("catch_up.playing", { number: plays.indexOf(current) + 1, count: plays.length })
              : t("catch_up.starting")}
          </p>
          <button type="button" className="btn" onClick={controls.backToEvent}>
            {t("catch_up.skip_to_live")}
          </button>
        </div>
      ) : (
        <button
          type="button"
          className="btn btn--primary key-plays__start"
          disabled={!catchUp.data?.url}
          onClick={() => void start().catch(() => undefined)}
        >
          {t("catch_up.start")}
        </button>
      )}
      {/* One row of a fixed height, whatever the answer: the key plays arriving (or none) never
          move what is below the panel, and a stream with nothing to cut yet is no error. */}
      <div className="key-plays__body">
        {catchUp.isPending ? (
          <p className="event-panel__note">{t("catch_up.loading")}</p>
        ) : plays.length === 0 ? (
          <p className="event-panel__note">{t("catch_up.none_yet")}</p>
        ) : (
          <ol className="key-plays__list">
            {shown.map((play) => (
              <li key={play.id} className="key-plays__item" aria-current={play === current ? "true" : undefined}>
                <button
                  type="button"
                  className="event-moment key-plays__play"
                  onClick={() =>
                    controls.reelPlaying ? controls.seekReel(play.reelOffset) : controls.seek(play.start)
                  }
                >
                  <span className="visually-hidden">{t("moments.seek")}</span>{" "}
                  <time className="event-moment__time" dateTime={`PT${Math.floor(play.start)}S`}>
                    {formatDuration(play.start)}
                  </time>{" "}
                  <span className="event-moment__title key-plays__title" dir="auto">
                    {play.title}
                  </span>
                </button>
              </li>
            ))}
          </ol>
        )}
      </div>
    </section>
  );
}
