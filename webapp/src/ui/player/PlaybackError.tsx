import { useTranslation } from "react-i18next";
import type { EngineErrorKind } from "./engine";

/** What stopped playback: the engine's errors, and a stream that stopped arriving. */
export type PlaybackErrorKind = EngineErrorKind | "stalled";

/**
 * What went wrong with playback, in words, and a retry (none for a browser that cannot play the
 * stream at all). `slot` places it in media-chrome's controller.
 */
export function PlaybackError({
  kind,
  onRetry,
  className,
  slot,
}: {
  kind: PlaybackErrorKind;
  onRetry: () => void;
  className: string;
  slot?: string;
}) {
  const { t } = useTranslation("player");
  return (
    <div slot={slot} className={className} role="alert">
      <p>{t(`error.${kind === "not-started" ? "not_started" : kind}`)}</p>
      {kind !== "unsupported" && (
        <button type="button" className="btn" onClick={onRetry}>
          {t("retry")}
        </button>
      )}
    </div>
  );
}
