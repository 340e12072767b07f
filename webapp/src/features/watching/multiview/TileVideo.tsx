import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { createEngine, type EngineError, type PlaybackEngine } from "@/ui/player/engine";
import { playWithFallback } from "@/ui/player/playback";
import { PlaybackError } from "@/ui/player/PlaybackError";
import { createTokenRenewal, type TokenRenewal } from "@/ui/player/tokenRenewal";
import { levelCapFor } from "./bandwidth";

/** A stream that has not started yet is tried again after this long when the server does not say. */
const NOT_STARTED_RETRY_S = 10;
/** Each tile marks its first playing frame with this (its `detail` is the event's id): the benchmark reads them. */
export const TILE_PLAYING_MARK = "multiview:tile-playing";

export interface TileVideoProps {
  eventId: string;
  /** The event's signed stream address. */
  url: string;
  live: boolean;
  poster: string | null;
  /** Names the video for assistive technology. */
  label: string;
  muted: boolean;
  /** How many tiles share the bandwidth now (./bandwidth). */
  sharing: number;
  /** A fresh signed address of the same stream (a new event answer). */
  renewStream: () => Promise<string | null>;
  /** The browser refused this tile sound (no gesture yet): it plays muted. */
  onSoundRefused: () => void;
}

/** What the tile says of its renditions, for the eye and for tests (data attributes). */
interface Renditions {
  playing: number | null;
  top: number;
  lowest: number;
}

function renditionsOf(engine: PlaybackEngine): Renditions | null {
  const bitrates = [...engine.renditions].map((rendition) => rendition.bitrate);
  if (!bitrates.length) return null;
  return { playing: engine.playingBitrate(), top: Math.max(...bitrates), lowest: Math.min(...bitrates) };
}

const sameRenditions = (a: Renditions | null, b: Renditions | null) =>
  a === b || (!!a && !!b && a.playing === b.playing && a.top === b.top && a.lowest === b.lowest);

/**
 * A tile's video: the player's engine (hls.js, capped to the tile's size and to its share of the
 * bandwidth) on a bare <video>, without the player's controls: the tile itself is the control
 * (sound, full view). It keeps the stream's token current as the event page's player does, and
 * says what went wrong with a retry. The rendition playing is on `data-level-bitrate`, beside the
 * stream's top and lowest (`data-top-bitrate`, `data-lowest-bitrate`).
 */
export function TileVideo(props: TileVideoProps) {
  const { eventId, url, live, poster, label, muted, sharing } = props;
  const { t } = useTranslation("player");
  const video = useRef<HTMLVideoElement>(null);
  const engineRef = useRef<PlaybackEngine | null>(null);
  const playing = useRef<string | null>(null);
  const latest = useRef(props);
  useLayoutEffect(() => {
    latest.current = props;
  });
  const [loadedUrl, setLoadedUrl] = useState<string | null>(null);
  const [error, setError] = useState<EngineError | null>(null);
  const [waiting, setWaiting] = useState(true);
  const [renditions, setRenditions] = useState<Renditions | null>(null);
  const renewal = useRef<TokenRenewal | null>(null);

  /** Plays with sound when the tile has it and the browser allows it; tells the page when it does not. */
  const play = (element: HTMLVideoElement) =>
    playWithFallback(element).then(() => {
      if (element.muted && !latest.current.muted) latest.current.onSoundRefused();
    });

  useLayoutEffect(() => {
    const element = video.current;
    if (!element) return;
    // The stream token is renewed before it expires and when the server refuses it.
    const tokens = createTokenRenewal({
      playing: () => playing.current,
      renewSource: () => latest.current.renewStream,
      adopt: (next) => {
        playing.current = next;
        engineRef.current?.swapToken(next);
        setLoadedUrl(next);
      },
    });
    renewal.current = tokens;
    const engine = createEngine(element, {
      onUpdate: () => {
        const next = engineRef.current ? renditionsOf(engineRef.current) : null;
        setRenditions((previous) => (sameRenditions(previous, next) ? previous : next));
      },
      onError: setError,
      onTokenRefused: () => void tokens.renewNow().catch(() => undefined),
      levelCap: (bitrates) => levelCapFor(bitrates, latest.current.sharing),
    });
    engineRef.current = engine;
    if (!engine) setError({ kind: "unsupported", retryAfterSeconds: null });
    return () => {
      engine?.destroy();
      engineRef.current = null;
      renewal.current = null;
      playing.current = null;
    };
  }, []);

  // A new address: the same stream under a new token swaps it in; another stream starts over.
  useLayoutEffect(() => {
    const engine = engineRef.current;
    const element = video.current;
    if (!engine || !element || renewal.current?.offer(url)) return;
    playing.current = url;
    setError(null);
    setLoadedUrl(url);
    engine.load({ url, live, originMs: null });
    element.muted = latest.current.muted;
    void play(element);
  }, [url, live]);

  useEffect(() => (loadedUrl ? renewal.current?.keepFresh(loadedUrl) : undefined), [loadedUrl]);

  // Sound: on for the tile that has it (the click or key that gave it is the gesture browsers ask for).
  useEffect(() => {
    const element = video.current;
    if (!element) return;
    element.muted = muted;
    if (!muted && playing.current) void play(element);
  }, [muted]);

  // Another number of tiles on screen: another share of the bandwidth.
  useEffect(() => engineRef.current?.refreshLevelCap(), [sharing]);

  useEffect(() => {
    const element = video.current;
    if (!element) return;
    const onPlaying = () => {
      setWaiting(false);
      setError((current) => (current?.kind === "not-started" ? null : current));
      if (element.dataset.played) return;
      element.dataset.played = "true";
      performance.mark(TILE_PLAYING_MARK, { detail: eventId });
    };
    const onWaiting = () => setWaiting(true);
    element.addEventListener("playing", onPlaying);
    element.addEventListener("waiting", onWaiting);
    return () => {
      element.removeEventListener("playing", onPlaying);
      element.removeEventListener("waiting", onWaiting);
    };
  }, [eventId]);

  const retry = () => {
    const engine = engineRef.current;
    const element = video.current;
    if (!engine || !element) return;
    const restart = () => {
      setError(null);
      engine.retry();
      void play(element);
    };
    const tokens = renewal.current;
    if (error?.kind === "forbidden" && tokens) void tokens.renewNow().then(restart, restart);
    else restart();
  };
  const retryRef = useRef(retry);
  useLayoutEffect(() => {
    retryRef.current = retry;
  });

  // A stream that has not started yet is tried again by itself, when the server said it would be.
  useEffect(() => {
    if (error?.kind !== "not-started") return;
    const timer = setTimeout(() => retryRef.current(), (error.retryAfterSeconds ?? NOT_STARTED_RETRY_S) * 1000);
    return () => clearTimeout(timer);
  }, [error]);

  return (
    <div
      className="mv-video"
      data-level-bitrate={renditions?.playing ?? undefined}
      data-top-bitrate={renditions?.top}
      data-lowest-bitrate={renditions?.lowest}
    >
      <video
        ref={video}
        className="mv-video__media"
        aria-label={label}
        poster={poster ?? undefined}
        playsInline
        muted
        preload="auto"
      />
      {waiting && !error && (
        <span className="mv-video__spinner" role="status">
          <span className="visually-hidden">{t("loading")}</span>
        </span>
      )}
      {error && <PlaybackError className="mv-video__error" kind={error.kind} onRetry={retry} />}
    </div>
  );
}
