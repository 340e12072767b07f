import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { PrerollAd } from "./ads";
import { formatClock } from "./dvr";

/** The ad's video must be playing within this long (unless the server says otherwise), else the match starts. */
export const AD_START_DEADLINE_MS = 2_500;
/** An ad that stalls this long mid-way is given up. */
const AD_STALL_MS = 4_000;

export type AdOutcome = "complete" | "skipped" | "failed";

interface AdBreakProps {
  ad: PrerollAd;
  startDeadlineMs?: number;
  /** The ad's video started playing (its impression). */
  onStart?: () => void;
  onDone: (outcome: AdOutcome) => void;
}

/**
 * A linear pre-roll over the player: labelled as an ad (visibly and for screen readers), with how
 * long it lasts, a skip button once the VAST allows it, and tracking through the VAST tracker
 * (impression, start, quartiles, complete, skip, mute, pause, click). Whatever goes wrong with it
 * ends it, and the match starts.
 */
export function AdBreak({ ad, startDeadlineMs = AD_START_DEADLINE_MS, onStart, onDone }: AdBreakProps) {
  const { t } = useTranslation("player");
  const video = useRef<HTMLVideoElement>(null);
  const skipButton = useRef<HTMLButtonElement>(null);
  const [elapsed, setElapsed] = useState(0);
  const [duration, setDuration] = useState(ad.duration);
  const [muted, setMuted] = useState(false);
  const done = useRef(false);
  const finish = useRef(onDone);
  const begin = useRef(onStart);
  useEffect(() => {
    finish.current = onDone;
    begin.current = onStart;
  }, [onDone, onStart]);

  useEffect(() => {
    const element = video.current;
    if (!element) return;
    const { tracking } = ad;
    let started = false;
    let stallTimer: ReturnType<typeof setTimeout> | undefined;
    const end = (outcome: AdOutcome, errorCode?: string) => {
      if (done.current) return;
      done.current = true;
      clearTimeout(startTimer);
      clearTimeout(stallTimer);
      if (errorCode) tracking.errorWithCode(errorCode);
      element.pause();
      finish.current(outcome);
    };
    // 402: the media file did not arrive in time; 405: it could not be played.
    const startTimer = setTimeout(() => end("failed", "402"), startDeadlineMs);
    const onPlaying = () => {
      clearTimeout(stallTimer);
      if (started) return;
      started = true;
      clearTimeout(startTimer);
      tracking.trackImpression();
      begin.current?.();
    };
    const onTime = () => {
      clearTimeout(stallTimer);
      setElapsed(element.currentTime);
      tracking.setProgress(element.currentTime);
    };
    const onMetadata = () => {
      if (Number.isFinite(element.duration) && element.duration > 0) {
        setDuration(element.duration);
        tracking.setDuration(element.duration);
      }
    };
    const onWaiting = () => {
      if (!started) return;
      clearTimeout(stallTimer);
      stallTimer = setTimeout(() => end("failed", "405"), AD_STALL_MS);
    };
    const onVolume = () => {
      setMuted(element.muted);
      tracking.setMuted(element.muted);
    };
    const onPause = () => {
      if (!done.current && !element.ended) tracking.setPaused(true);
    };
    const onPlay = () => {
      if (started) tracking.setPaused(false);
    };
    const onEnded = () => {
      if (done.current) return;
      tracking.complete();
      end("complete");
    };
    const onError = () => end("failed", "405");
    const listeners: [string, () => void][] = [
      ["playing", onPlaying],
      ["timeupdate", onTime],
      ["loadedmetadata", onMetadata],
      ["waiting", onWaiting],
      ["volumechange", onVolume],
      ["pause", onPause],
      ["play", onPlay],
      ["ended", onEnded],
      ["error", onError],
    ];
    for (const [type, listener] of listeners) element.addEventListener(type, listener);
    element.src = ad.mediaUrl;
    // Sound first; a browser that refuses unmuted autoplay gets the ad muted (the viewer can unmute).
    element.play().catch(() => {
      if (done.current) return;
      element.muted = true;
      element.play().catch(() => end("failed", "400"));
    });
    return () => {
      clearTimeout(startTimer);
      clearTimeout(stallTimer);
      for (const [type, listener] of listeners) element.removeEventListener(type, listener);
      element.removeAttribute("src");
      element.load();
    };
  }, [ad, startDeadlineMs]);

  const remaining = Math.max(0, Math.ceil(duration - elapsed));
  const skipIn = ad.skipAfter === null ? null : Math.max(0, Math.ceil(ad.skipAfter - elapsed));
  const canSkip = skipIn === 0;

  const skip = () => {
    if (done.current) return;
    ad.tracking.skip();
    done.current = true;
    video.current?.pause();
    onDone("skipped");
  };

  const visit = () => {
    ad.tracking.click();
    video.current?.pause();
  };

  return (
    <section className="player-ad" aria-label={t("ad.region")} aria-roledescription={t("ad.label")}>
      {/* eslint-disable-next-line jsx-a11y/media-has-caption -- VAST creatives carry no caption track; the ad is announced in the live region */}
      <video ref={video} className="player-ad__video" playsInline preload="auto" aria-hidden="true" />
      <p className="visually-hidden" role="status">
        {t("ad.announce")}
      </p>
      <div className="player-ad__bar">
        <span className="player-ad__badge">{t("ad.label")}</span>
        <span className="player-ad__time" aria-hidden="true">
          {t("ad.remaining", { time: formatClock(remaining) })}
        </span>
        <button
          type="button"
          className="player-ad__button"
          onClick={() => {
            const element = video.current;
            if (element) element.muted = !element.muted;
          }}
          aria-pressed={muted}
        >
          {t("ad.mute")}
        </button>
        {skipIn !== null &&
          (canSkip ? (
            <button ref={skipButton} type="button" className="player-ad__skip" onClick={skip}>
              {t("ad.skip")}
            </button>
          ) : (
            <span className="player-ad__skip player-ad__skip--waiting" aria-hidden="true">
              {t("ad.skip_in", { seconds: skipIn })}
            </span>
          ))}
      </div>
      {/* In the top corner, apart from the bar: on a phone the bar has room for one row only. */}
      {ad.clickThrough && (
        <a
          className="player-ad__button player-ad__visit"
          href={ad.clickThrough}
          target="_blank"
          rel="noopener noreferrer sponsored"
          onClick={visit}
        >
          {t("ad.visit")}
        </a>
      )}
    </section>
  );
}
