import {
  forwardRef,
  startTransition,
  useCallback,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { useTranslation } from "react-i18next";
import {
  MediaControlBar,
  MediaController,
  MediaFullscreenButton,
  MediaLoadingIndicator,
  MediaMuteButton,
  MediaPipButton,
  MediaPlayButton,
  MediaPlaybackRateMenu,
  MediaPlaybackRateMenuButton,
  MediaRenditionMenu,
  MediaRenditionMenuButton,
  MediaSeekBackwardButton,
  MediaSeekForwardButton,
  MediaTimeDisplay,
  MediaTimeRange,
  MediaVolumeRange,
  type MediaControllerElement,
} from "./chrome";
import { afterNextPaint } from "@/lib/afterNextPaint";
import { AdBreak } from "./AdBreak";
import { loadPreroll, markPrerollShown, prerollDue, type PrerollAd } from "./ads";
import { applyChromeLanguage } from "./chromeStrings";
import { fractionOf, isAtLive, secondsBehindLive, toStreamTime } from "./dvr";
import { createEngine, type EngineError, type PlaybackEngine } from "./engine";
import { HelpDialog } from "./HelpDialog";
import { PlaybackError, type PlaybackErrorKind } from "./PlaybackError";
import { leaveArrowsToController, setKeyboardSeekStep } from "./keyboard";
import { LiveControl } from "./LiveControl";
import { playWithFallback } from "./playback";
import { reportPlayer, type PlayerReport } from "./qoe";
import { streamClaims } from "./streamUrl";
import { createTokenRenewal } from "./tokenRenewal";
import {
  endLive,
  LIVE_REFRESH_MS,
  liveThumbnailsUrl,
  liveTrack,
  parseLiveCues,
  placeCues,
  type LiveCue,
} from "./liveThumbnails";
import { showThumbnails, thumbnailsUrl } from "./thumbnails";
import type { PlayerHandle, PlayerProps } from "./types";

/** Seconds the keyboard and the skip buttons move by. */
const SEEK_STEP = 10;
/** Playback that wants to play but has not moved for this long is reported, never left spinning. */
const STALL_MS = 15_000;
/** The stream-time callback fires at most this often. */
const TIME_EVENT_MS = 250;
/** A stream that has not started is tried again after this long when the server does not say. */
const NOT_STARTED_RETRY_S = 10;
const RATES = [0.5, 0.75, 1, 1.25, 1.5, 2];

type AdPhase = "loading" | "playing" | "done";
type PlayerError = EngineError | { kind: Extract<PlaybackErrorKind, "stalled">; retryAfterSeconds: null };

/** The live control's and the markers' view of playback, refreshed a few times a second. */
interface Progress {
  behind: number | null;
  atLive: boolean;
  /** The seekable span in stream seconds (live: the window; VOD: 0..duration). */
  span: { start: number; end: number } | null;
}

const NO_PROGRESS: Progress = { behind: null, atLive: true, span: null };

/** A DOM id from React's (which holds colons, not allowed in the `#id` selectors media-chrome uses). */
function domId(prefix: string): string {
  return `${prefix}-${Math.random().toString(36).slice(2, 10)}`;
}

function markFirstFrame(video: HTMLVideoElement): void {
  const mark = () => performance.mark("player:first-frame");
  if ("requestVideoFrameCallback" in video) video.requestVideoFrameCallback(() => mark());
  else mark();
}

const PlayerView = forwardRef<PlayerHandle, PlayerProps>(function PlayerView(props, ref) {
  const { source, poster, vastUrl, adKey, adDeadlines, markers, extraControls, notice, hideDuration } = props;
  const { t, i18n } = useTranslation("player");
  applyChromeLanguage(i18n.language, t);

  const controller = useRef<MediaControllerElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const [video] = useState(() => {
    const element = document.createElement("video");
    element.slot = "media";
    element.playsInline = true;
    element.preload = "auto";
    element.setAttribute("tabindex", "-1");
    return element;
  });
  const [ids] = useState(() => ({ quality: domId("quality-menu"), rate: domId("rate-menu") }));
  const engineRef = useRef<PlaybackEngine | null>(null);
  const [engineKind, setEngineKind] = useState<PlaybackEngine["kind"] | null>(null);
  const engineReady = engineKind !== null;
  const [started, setStarted] = useState(false);
  const [error, setError] = useState<PlayerError | null>(null);
  // The pre-roll is the one the player started with: an ad never interrupts a match under way.
  // A break already shown in this session (the viewer came back to the event) is not shown again.
  const [prerollUrl] = useState(() => (vastUrl && (!adKey || prerollDue(adKey)) ? vastUrl : null));
  const vastDeadline = adDeadlines?.vastMs;
  const [adPhase, setAdPhase] = useState<AdPhase>(prerollUrl ? "loading" : "done");
  const [ad, setAd] = useState<PrerollAd | null>(null);
  const [progress, setProgress] = useState<Progress>(NO_PROGRESS);
  const [mutedByBrowser, setMutedByBrowser] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  // The controls (a dozen of media-chrome's elements with their shadow trees) mount once the video
  // and its engine are in and painted: one commit of both kept a phone busy for ~250 ms. Until
  // then the frame shows the poster and the loading indicator, as while any stream starts.
  const [controlsShown, setControlsShown] = useState(false);
  useEffect(() => afterNextPaint(() => startTransition(() => setControlsShown(true))), []);
  const [loadedUrl, setLoadedUrl] = useState<string | null>(null);
  /** Counts the streams loaded (a token swap is not a new one). */
  const [loads, setLoads] = useState(0);

  // The latest props, for callbacks that outlive a render (before any other effect reads them).
  const latest = useRef(props);
  useLayoutEffect(() => {
    latest.current = props;
  });
  /** The address playing now (its token may be newer than the prop's). */
  const currentUrl = useRef<string | null>(null);
  /** The quality-of-experience report of what plays (./qoe), when the page asked for one. */
  const qoe = useRef<PlayerReport | null>(null);

  // --- the engine -------------------------------------------------------------------------------

  // The stream token is renewed before it expires and when the server refuses it (./tokenRenewal).
  const [renewal] = useState(() =>
    createTokenRenewal({
      playing: () => currentUrl.current,
      renewSource: () => latest.current.renewSource,
      adopt: (url) => {
        currentUrl.current = url;
        engineRef.current?.swapToken(url);
        setLoadedUrl(url);
      },
    }),
  );
  const renewNow = renewal.renewNow;

  // Layout effects: the stream starts loading in the commit that shows the player, not a frame or
  // more later (every millisecond here is one before the first frame).
  useLayoutEffect(() => {
    const host = controller.current;
    if (!host) return;
    host.prepend(video);
    setKeyboardSeekStep(host, SEEK_STEP);
    // Fullscreen shows the whole frame: the controls, and the ad, help and errors over them.
    if (frame.current) host.fullscreenElement = frame.current;
    const engine = createEngine(video, {
      onUpdate: () => refresh(),
      onError: (next) => setError(next),
      onTokenRefused: () => void renewNow().catch(() => undefined),
      requestAddress: (url, request) => qoe.current?.address(url, request) ?? url,
      onRecovered: (detail) => qoe.current?.recovered(detail),
    });
    engineRef.current = engine;
    if (engine) setEngineKind(engine.kind);
    else setError({ kind: "unsupported", retryAfterSeconds: null });
    const settings = latest.current.qoe;
    qoe.current = engine && settings ? reportPlayer(video, engine, settings) : null;
    return () => {
      qoe.current?.destroy();
      qoe.current = null;
      engine?.destroy();
      engineRef.current = null;
      currentUrl.current = null;
      setEngineKind(null);
      video.remove();
    };
    // `refresh` only reads refs and the element.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- refresh is stable in behaviour (reads refs only)
  }, [video, renewNow]);

  // A new source: the same stream under a new token swaps it in; another stream starts over.
  const sourceUrl = source?.url ?? null;
  useLayoutEffect(() => {
    const engine = engineRef.current;
    const next = latest.current.source;
    if (!engineReady || !engine || !next) return;
    if (renewal.offer(next.url)) return;
    currentUrl.current = next.url;
    // A view of its own, begun before its first request goes (that carries the view's CMCD).
    qoe.current?.begin(next.url, latest.current.qoe?.eventId ?? null);
    setError(null);
    setProgress(NO_PROGRESS);
    setLoadedUrl(next.url);
    setLoads((count) => count + 1);
    engine.load(
      { url: next.url, live: next.live, originMs: next.originMs ?? streamOrigin(next.url) },
      latest.current.startAt ?? null,
    );
  }, [engineReady, sourceUrl, renewal]);

  // Renew the stream token before it expires (and again after each renewal).
  useEffect(() => (loadedUrl ? renewal.keepFresh(loadedUrl) : undefined), [loadedUrl, renewal]);

  // Seek previews of the stream playing, with its current token (./thumbnails): the track's address
  // carries it, and sets the cookie its sprite sheets then go with.
  const previews = loadedUrl && !source?.live ? thumbnailsUrl(loadedUrl) : null;
  useEffect(() => {
    showThumbnails(video, previews);
  }, [previews, video]);

  // A live stream's previews of its rewind window (./liveThumbnails): read again every few seconds
  // and placed on this player's own timeline through the stream's program date-times.
  const livePreviews = loadedUrl && source?.live ? liveThumbnailsUrl(loadedUrl) : null;
  useEffect(() => {
    if (!livePreviews) return;
    const track = liveTrack(video);
    let cues: LiveCue[] = [];
    let current = true;
    const place = () => {
      const timeline = engineRef.current?.timeline();
      if (timeline?.kind === "live") placeCues(track, cues, timeline.anchors);
    };
    const refresh = async () => {
      // With the token in its address (and so the cookie the pictures media-chrome loads go with).
      const answer = await fetch(livePreviews, { credentials: "same-origin" }).catch(() => null);
      if (!current || !answer?.ok) return; // none yet (the first pictures come a few seconds in)
      cues = parseLiveCues(await answer.text(), livePreviews);
      if (current) place();
    };
    void refresh();
    const timer = setInterval(() => void refresh(), LIVE_REFRESH_MS);
    return () => {
      current = false;
      clearInterval(timer);
      endLive(track);
    };
  }, [livePreviews, video]);

  // --- the pre-roll -----------------------------------------------------------------------------

  useEffect(() => {
    if (!prerollUrl) return;
    let cancelled = false;
    const canPlay = (type: string) => document.createElement("video").canPlayType(type) !== "";
    void loadPreroll(prerollUrl, canPlay, vastDeadline).then((found) => {
      if (cancelled) return;
      setAd(found);
      setAdPhase(found ? "playing" : "done");
    });
    return () => {
      cancelled = true;
    };
  }, [prerollUrl, vastDeadline]);

  // The match plays once there is no ad (left) to play.
  useEffect(() => {
    if (adPhase !== "done" || loads === 0) return;
    const engine = engineRef.current;
    // A live stream buffered under an ad starts at live, not where it was when the ad began.
    const window = engine?.liveWindow();
    const live = engine?.livePosition();
    if (window && live != null && secondsBehindLive(video.currentTime, live) > window.targetDuration * 2)
      engine?.seekToLive();
    void playWithFallback(video).then(() => setMutedByBrowser(video.muted && !video.paused));
  }, [adPhase, loads, video]);

  // --- what the controls show -------------------------------------------------------------------

  const lastTimeEvent = useRef(0);
  const lastMoved = useRef({ at: Date.now(), time: 0 });

  function refresh() {
    const engine = engineRef.current;
    if (!engine) return;
    const timeline = engine.timeline();
    let next: Progress;
    if (timeline.kind === "live") {
      const window = engine.liveWindow();
      const live = engine.livePosition();
      const behind = live === null ? null : secondsBehindLive(video.currentTime, live);
      const start = window ? toStreamTime(window.start, timeline) : null;
      const end = window ? toStreamTime(window.end, timeline) : null;
      next = {
        behind,
        atLive: behind === null || !window ? true : isAtLive(behind, window.targetDuration),
        span: start !== null && end !== null ? { start, end } : null,
      };
    } else {
      const duration = video.duration;
      next = { behind: null, atLive: true, span: Number.isFinite(duration) ? { start: 0, end: duration } : null };
    }
    setProgress((previous) =>
      previous.atLive === next.atLive &&
      Math.round(previous.behind ?? -1) === Math.round(next.behind ?? -1) &&
      Math.round(previous.span?.start ?? -1) === Math.round(next.span?.start ?? -1) &&
      Math.round(previous.span?.end ?? -1) === Math.round(next.span?.end ?? -1)
        ? previous
        : next,
    );
  }

  useEffect(() => {
    const onTime = () => {
      const now = Date.now();
      if (video.currentTime !== lastMoved.current.time) lastMoved.current = { at: now, time: video.currentTime };
      refresh();
      const engine = engineRef.current;
      const report = latest.current.onStreamTimeChange;
      if (!engine || !report || now - lastTimeEvent.current < TIME_EVENT_MS) return;
      const seconds = toStreamTime(video.currentTime, engine.timeline());
      if (seconds !== null) {
        lastTimeEvent.current = now;
        report(seconds);
      }
    };
    const onPlaying = () => {
      lastMoved.current = { at: Date.now(), time: video.currentTime };
      setError((current) => (current?.kind === "stalled" ? null : current));
      if (!video.dataset.played) {
        video.dataset.played = "true";
        markFirstFrame(video);
        setStarted(true);
      }
    };
    const onVolume = () => {
      if (!video.muted) setMutedByBrowser(false);
    };
    const onWaiting = () => {
      lastMoved.current = { at: Date.now(), time: video.currentTime };
    };
    const onEnded = () => latest.current.onEnded?.();
    const listeners: [string, () => void][] = [
      ["ended", onEnded],
      ["timeupdate", onTime],
      ["seeked", onTime],
      ["durationchange", onTime],
      ["progress", onTime],
      ["playing", onPlaying],
      ["play", onWaiting],
      ["volumechange", onVolume],
    ];
    for (const [type, listener] of listeners) video.addEventListener(type, listener);
    // The watchdog: wanting to play without moving for STALL_MS is an error with a retry.
    const watchdog = setInterval(() => {
      // A source the page says sends nothing for now is waited for, not reported.
      if (video.paused || video.ended || !currentUrl.current || latest.current.notice) {
        lastMoved.current = { at: Date.now(), time: video.currentTime };
        return;
      }
      if (Date.now() - lastMoved.current.at > STALL_MS)
        setError((current) => current ?? { kind: "stalled", retryAfterSeconds: null });
    }, 1_000);
    return () => {
      for (const [type, listener] of listeners) video.removeEventListener(type, listener);
      clearInterval(watchdog);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- refresh reads refs and the element only
  }, [video]);

  const retry = useCallback(() => {
    const engine = engineRef.current;
    if (!engine) return;
    lastMoved.current = { at: Date.now(), time: video.currentTime };
    const restart = () => {
      setError(null);
      engine.retry();
      void playWithFallback(video);
    };
    if (error?.kind === "forbidden") void renewNow().then(restart, restart);
    else restart();
  }, [error, renewNow, video]);

  // Every error the viewer is shown is reported; the report knows which end the view (./qoe/errors).
  useEffect(() => {
    if (error) qoe.current?.error(error);
  }, [error]);

  // A stream that has not started yet is tried again by itself, when the server said it would be.
  useEffect(() => {
    if (error?.kind !== "not-started") return;
    const timer = setTimeout(retry, (error.retryAfterSeconds ?? NOT_STARTED_RETRY_S) * 1000);
    return () => clearTimeout(timer);
  }, [error, retry]);

  // The source is back (the page's notice is gone): what failed while it sent nothing is tried
  // again at once, so playback resumes by itself.
  const waitingForSource = !!notice;
  const waitedForSource = useRef(waitingForSource);
  useEffect(() => {
    const sourceBack = waitedForSource.current && !waitingForSource;
    waitedForSource.current = waitingForSource;
    if (sourceBack && error && error.kind !== "unsupported") retry();
  }, [waitingForSource, error, retry]);

  // --- the handle -------------------------------------------------------------------------------

  useImperativeHandle(
    ref,
    () => ({
      streamTime() {
        const engine = engineRef.current;
        if (!engine || video.readyState === HTMLMediaElement.HAVE_NOTHING) return null;
        return toStreamTime(video.currentTime, engine.timeline());
      },
      streamEnd() {
        const engine = engineRef.current;
        if (!engine) return null;
        const timeline = engine.timeline();
        if (timeline.kind === "vod") return Number.isFinite(video.duration) ? video.duration : null;
        const window = engine.liveWindow();
        return window ? toStreamTime(window.end, timeline) : null;
      },
      seekTo(streamSeconds) {
        engineRef.current?.seekStream(streamSeconds);
      },
      play: () => playWithFallback(video),
      pause: () => video.pause(),
    }),
    [video],
  );

  // --- keyboard ---------------------------------------------------------------------------------

  // ← and → step SEEK_STEP seconds with the seek bar focused too (not its slider's 1 %).
  useEffect(() => {
    const range = controlsShown ? controller.current?.querySelector<HTMLElement>("media-time-range") : null;
    return range ? leaveArrowsToController(range) : undefined;
  }, [controlsShown]);

  useEffect(() => {
    const host = controller.current;
    if (!host) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "?" || (event.key === "/" && event.shiftKey)) {
        event.preventDefault();
        setHelpOpen(true);
      }
    };
    host.addEventListener("keydown", onKey);
    return () => host.removeEventListener("keydown", onKey);
  }, []);

  const live = source?.live ?? false;
  const lengthHidden = !!hideDuration && !live;
  const span = progress.span;
  const adShowing = adPhase !== "done";

  return (
    <div ref={frame} className="player__frame" data-ad={adShowing || undefined}>
      <MediaController
        ref={controller}
        className="player__controller"
        hotkeys="noshift+/"
        defaultStreamType={live ? "live" : "on-demand"}
        noAutoSeekToLive
        lang={i18n.language}
        tabIndex={0}
        inert={adShowing || undefined}
        data-engine={engineKind ?? undefined}
      >
        {poster && !started && <img slot="poster" className="player__poster" src={poster} alt="" decoding="async" />}
        {!waitingForSource && <MediaLoadingIndicator slot="centered-chrome" noAutohide loadingDelay={300} />}
        {mutedByBrowser && (
          <button
            slot="top-chrome"
            type="button"
            className="player__unmute"
            onClick={() => {
              video.muted = false;
              setMutedByBrowser(false);
            }}
          >
            {t("unmute")}
          </button>
        )}
        {controlsShown && (
          <>
            <MediaRenditionMenu id={ids.quality} hidden anchor="auto" />
            {!live && <MediaPlaybackRateMenu id={ids.rate} hidden anchor="auto" rates={RATES} />}
            {/* The timeline runs left to right in every language, as in most players: the seek
                bar's clicks, fill and playhead, the markers and the times all read that way. */}
            <div className="player__timeline" dir="ltr" hidden={lengthHidden}>
              {!lengthHidden && <MediaTimeRange className="player__range" />}
              {!!markers?.length && span && !lengthHidden && (
                <div className="player__markers" aria-hidden="true">
                  {markers.map((marker) => {
                    const at = fractionOf(marker.time, span.start, span.end);
                    return at === null ? null : (
                      <span
                        key={marker.id}
                        className="player__marker"
                        style={{ insetInlineStart: `${at * 100}%` }}
                        title={marker.label}
                      />
                    );
                  })}
                </div>
              )}
            </div>
            <MediaControlBar className="player__bar">
              <MediaPlayButton />
              <MediaSeekBackwardButton seekOffset={SEEK_STEP} />
              <MediaSeekForwardButton seekOffset={SEEK_STEP} />
              <MediaMuteButton />
              <MediaVolumeRange />
              {live ? (
                <LiveControl
                  behind={progress.behind}
                  atLive={progress.atLive}
                  onGoLive={() => {
                    engineRef.current?.seekToLive();
                    void playWithFallback(video);
                  }}
                />
              ) : (
                <MediaTimeDisplay showDuration={!lengthHidden} dir="ltr" />
              )}
              <span className="player__spacer" />
              {extraControls}
              <button
                type="button"
                className="player__button player__help-button"
                aria-label={t("help.open")}
                title={t("help.open")}
                aria-haspopup="dialog"
                onClick={() => setHelpOpen(true)}
              >
                ?
              </button>
              <MediaRenditionMenuButton invokeTarget={ids.quality} />
              {!live && <MediaPlaybackRateMenuButton invokeTarget={ids.rate} />}
              <MediaPipButton />
              <MediaFullscreenButton />
            </MediaControlBar>
          </>
        )}
        {error && !waitingForSource && (
          <PlaybackError slot="centered-chrome" className="player__error" kind={error.kind} onRetry={retry} />
        )}
      </MediaController>
      {waitingForSource && (
        <div className="player__notice">
          <div className="player__notice-box">{notice}</div>
        </div>
      )}
      {helpOpen && (
        <HelpDialog
          live={live}
          onClose={() => {
            setHelpOpen(false);
            controller.current?.focus();
          }}
        />
      )}
      {adPhase === "playing" && ad && (
        <AdBreak
          ad={ad}
          startDeadlineMs={adDeadlines?.startMs}
          onStart={() => {
            if (adKey) markPrerollShown(adKey);
          }}
          onDone={() => setAdPhase("done")}
        />
      )}
      {adPhase === "loading" && (
        <div className="player__placeholder player__overlay" role="status">
          <span className="player__spinner" aria-hidden="true" />
          <span className="visually-hidden">{t("ad.loading")}</span>
        </div>
      )}
    </div>
  );
});

/** Live streams count from the kickoff in their path (where the server cut the stream). */
function streamOrigin(url: string): number | null {
  const start = streamClaims(url)?.start;
  return start ? start * 1000 : null;
}

export default PlayerView;
