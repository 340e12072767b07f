import { useEffect, useEffectEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "@/lib/kickoff";
import { formatClock, formatDays, timeLeft } from "./countdown";

/**
 * Upcoming events: the time left until kick-off, ticking every second, then "starting soon" until
 * the event goes live (the page then swaps in the player). The ticking digits are a timer, which
 * screen readers do not read out on every change; the kick-off time is written beside them.
 */
export function Countdown({
  startsAt,
  startingSoon,
  onElapsed,
}: {
  startsAt: Date;
  startingSoon: boolean;
  onElapsed: () => void;
}) {
  const { t, i18n } = useTranslation("event");
  const [now, setNow] = useState(() => Date.now());
  const left = timeLeft(startsAt, now);
  const days = formatDays(left, i18n.language);
  const elapsed = useEffectEvent(onElapsed);

  useEffect(() => {
    if (left.total <= 0) {
      elapsed();
      return;
    }
    // Wake at the next whole second of the countdown, not every 1000 ms from mount.
    const timer = setTimeout(() => setNow(Date.now()), left.total % 1000 || 1000);
    return () => clearTimeout(timer);
  }, [left.total]);

  const when = <time dateTime={startsAt.toISOString()}>{formatDateTime(startsAt, i18n.language)}</time>;
  return (
    <div className="event-countdown">
      {left.total > 0 || !startingSoon ? (
        <>
          <p className="event-countdown__label">{t("countdown.starts_in")}</p>
          <p className="event-countdown__clock" role="timer">
            {/* Each part keeps its own direction: "2 days" reads in the page's, the clock left to right. */}
            {days && <bdi className="event-countdown__days">{days}</bdi>} <bdi dir="ltr">{formatClock(left)}</bdi>
          </p>
          <p className="event-countdown__when">
            {t("countdown.kickoff")} {when}
          </p>
        </>
      ) : (
        <p className="event-countdown__soon" role="status">
          {t("countdown.starting_soon")}
        </p>
      )}
    </div>
  );
}
