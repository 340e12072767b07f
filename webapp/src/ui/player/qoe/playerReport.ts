/*
 * The QoE report of one player: its views one after another (./view), each begun by the player
 * when it loads a source and ended when another one loads, the player goes, the page goes or a
 * fatal error ends it; played again after that (a retry, a replay, a page back from the
 * back/forward cache) is a new view of the same source. The report hears the <video> itself and
 * asks the engine what plays; the player tells it only what the video cannot: the source, errors,
 * and each media request going out (which gets the view's CMCD).
 *
 * Whether a view reports is drawn when it begins (`qoe.sample_rate`); one that does not still
 * has its id for CMCD.
 */
import { cmcdOf, encodeCmcd, withCmcd } from "./cmcd";
import { recoveredErrorOf, viewErrorOf, type PlayerErrorLike } from "./errors";
import type { MediaRequest } from "./mediaRequests";
import { assetOf } from "./streamAsset";
import { randomId } from "./anonymousId";
import { View, type Beacon, type Rendition } from "./view";

/** How often a view playing reports its time played (the contract asks for one at least every 15 s). */
export const WATCHED_EVERY_MS = 10_000;

/** What the report asks the engine (a structural subset of ./engine's PlaybackEngine). */
export interface ReportedEngine {
  readonly player: { name: string; version: string };
  /** bits per second */
  playingBitrate(): number | null;
  playingHeight(): number | null;
}

export interface PlayerReportOptions {
  /** The share of views that report (0 to 1). */
  sampleRate: number;
  emit: (beacon: Beacon) => void;
  /** Epoch milliseconds. */
  now?: () => number;
  random?: () => number;
  newId?: () => string;
  /** Told when the report is destroyed. */
  onDestroy?: () => void;
}

const MEDIA_EVENTS = ["play", "playing", "waiting", "seeking", "seeked", "pause", "ended", "timeupdate", "resize"];

export class PlayerReport {
  #view: View | null = null;
  #source: { url: string; eventId: string } | null = null;
  /** The playhead at the last look, to tell how far a seek jumped. */
  #lastTime = 0;
  readonly #video: HTMLVideoElement;
  readonly #engine: ReportedEngine;
  readonly #options: PlayerReportOptions;
  readonly #timer: ReturnType<typeof setInterval>;

  constructor(video: HTMLVideoElement, engine: ReportedEngine, options: PlayerReportOptions) {
    this.#video = video;
    this.#engine = engine;
    this.#options = options;
    for (const type of MEDIA_EVENTS) video.addEventListener(type, this.#onMedia);
    this.#timer = setInterval(() => this.#view?.watched(), WATCHED_EVERY_MS);
  }

  /** The id of the view under way (its CMCD `sid`), if any. */
  get viewId(): string | null {
    return this.#view && !this.#view.ended ? this.#view.id : null;
  }

  /**
   * The player loads a source (another stream, not a new token for the same): a new view of
   * `eventId`'s media; none for a source that is no event's.
   */
  begin(url: string, eventId: string | null): void {
    this.#source = eventId === null ? null : { url, eventId };
    this.#newView();
  }

  /** `url` of a media request of the view under way, with its CMCD. */
  address(url: string, request: MediaRequest): string {
    const view = this.#view;
    const source = this.#source;
    if (!view || view.ended || !source) return url;
    return withCmcd(url, encodeCmcd(cmcdOf(request, { sessionId: view.id, contentId: source.eventId })));
  }

  error(error: PlayerErrorLike): void {
    this.#view?.error(viewErrorOf(error));
  }

  /** hls.js recovered from a media error in place. */
  recovered(detail: string): void {
    this.#view?.error(recoveredErrorOf(detail));
  }

  /** Reports the time played so far (the page is hidden: it may never come back). */
  checkpoint(): void {
    this.#view?.watched();
  }

  /** The view under way ends (the page goes); playing again begins another. */
  end(): void {
    this.#view?.exit();
  }

  /** The player goes: its view ends, and the report hears nothing more. */
  destroy(): void {
    this.end();
    this.#view = null;
    this.#source = null;
    clearInterval(this.#timer);
    for (const type of MEDIA_EVENTS) this.#video.removeEventListener(type, this.#onMedia);
    this.#options.onDestroy?.();
  }

  #newView(): void {
    this.#view?.exit();
    this.#view = null;
    const source = this.#source;
    if (!source) return;
    const { sampleRate, emit, now = Date.now, random = Math.random, newId = randomId } = this.#options;
    const sampled = random() < sampleRate;
    this.#lastTime = this.#video.currentTime;
    this.#view = new View({
      identity: {
        view: newId(),
        event: source.eventId,
        asset: assetOf(source.url),
        player: this.#engine.player.name,
        playerVersion: this.#engine.player.version,
      },
      emit: sampled ? emit : () => undefined,
      now,
    });
  }

  #rendition(): Rendition {
    const bitrate = this.#engine.playingBitrate();
    const height = this.#engine.playingHeight();
    return { bitrateKbps: bitrate ? Math.round(bitrate / 1000) : null, rendition: height ? `${height}p` : null };
  }

  #onMedia = (event: Event) => {
    const video = this.#video;
    if (event.type === "play" && this.#view?.ended) this.#newView();
    const view = this.#view;
    if (!view) return;
    switch (event.type) {
      case "play":
        view.intent();
        break;
      case "playing":
        view.playing(this.#rendition());
        break;
      case "waiting":
        // During a seek it is the seek's; after it, until frames play, the view knows it is.
        if (!video.seeking) view.waiting();
        break;
      case "seeking":
        view.seeking(Math.abs(video.currentTime - this.#lastTime));
        this.#lastTime = video.currentTime;
        break;
      case "seeked":
        // A seek within what is buffered may play on without a `playing`.
        if (view.framePlayed && !video.paused && video.readyState >= HTMLMediaElement.HAVE_FUTURE_DATA)
          view.playing(this.#rendition());
        break;
      case "pause":
        if (!video.ended) view.paused();
        break;
      case "ended":
        view.exit();
        break;
      default: // timeupdate, resize: what plays may have changed
        if (!video.seeking) this.#lastTime = video.currentTime;
        view.level(this.#rendition());
    }
  };
}
