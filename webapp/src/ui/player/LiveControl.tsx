import { useTranslation } from "react-i18next";
import { formatClock } from "./dvr";

interface LiveControlProps {
  /** Seconds behind the live position; null while unknown. */
  behind: number | null;
  atLive: boolean;
  onGoLive: () => void;
}

/**
 * The "LIVE" control of a live stream: lit when playback is at live, else how far behind it is
 * ("LIVE −1:05"); pressing it goes back to live.
 */
export function LiveControl({ behind, atLive, onGoLive }: LiveControlProps) {
  const { t } = useTranslation("player");
  const late = !atLive && behind !== null;
  const label = late ? t("live.behind", { time: formatClock(behind) }) : t("live.at_live");
  return (
    <button
      type="button"
      className={`player__button player__live${late ? " player__live--behind" : ""}`}
      aria-label={label}
      title={label}
      onClick={onGoLive}
      data-behind={behind === null ? undefined : Math.round(behind)}
    >
      <span className="player__live-dot" aria-hidden="true" />
      <span aria-hidden="true">{t("live.badge")}</span>
      {late && (
        <span aria-hidden="true" dir="ltr">
          {formatClock(behind, true)}
        </span>
      )}
    </button>
  );
}
