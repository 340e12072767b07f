/*
 * The playback engine: hls.js over Media Source Extensions (or ManagedMediaSource) wherever
 * `Hls.isSupported()`, else the browser's own HLS. It plays one source at a time on one <video>,
 * keeps the stream token current without interrupting playback, and tells the player what the
 * stream looks like (live window, program date-times, renditions) and what went wrong.
 *
 * This module is loaded only with the player (hls.js is most of its weight): never import it
 * statically from anything a first page load needs.
 */
import HlsJs, {
  CapLevelController,
  ErrorTypes,
  Events,
  type ErrorData,
  type FragmentLoaderConstructor,
  type FragmentLoaderContext,
  type HlsConfig,
  type LevelDetails,
  type Loader,
  type LoaderCallbacks,
  type LoaderConfiguration,
  type LoaderContext,
  type LoaderResponse,
  type PlaylistLoaderContext,
  type PlaylistLoaderConstructor,
  type LoadPolicy,
  type RetryConfig,
} from "hls.js/light";
import {
  CATCH_UP_RATE,
  catchUpRate,
  clampSeek,
  toMediaTime,
  toStreamTime,
  type LiveWindow,
  type TimeAnchor,
  type Timeline,
} from "./dvr";
import { discontinuityRebaser } from "./playlists";
import { exposeProbe, type ProbeHost } from "./probe";
import { describeRequest, type MediaRequest } from "./qoe/mediaRequests";
import { RenditionList } from "./renditions";
import { renewStreamCookie } from "./streamUrl";

export interface PlaybackSource {
  /** A playlist address, signed (`/media/<path>?token=...`) or not. */
  url: string;
  live: boolean;
  /** Live streams: stream time 0, epoch ms (the event's kickoff). */
  originMs: number | null;
}

export type EngineErrorKind = "network" | "media" | "unsupported" | "not-started" | "forbidden";

export interface EngineError {
  kind: EngineErrorKind;
  /** `not-started`: when to try again (the server's Retry-After). */
  retryAfterSeconds: number | null;
  /** hls.js's name for what failed (`fragLoadError`), for the QoE report (./qoe). */
  detail?: string;
}

export interface EngineOptions {
  /** The stream's shape changed (live window, anchors, renditions, level). */
  onUpdate: () => void;
  /** A fatal error (null: it went away: recovered, or a retry started). */
  onError: (error: EngineError | null) => void;
  /** The server refused the stream token (expired while the tab slept): a new address is needed now. */
  onTokenRefused: () => void;
  /**
   * The highest rendition automatic selection may play, as an index into the stream's bitrates
   * (lowest first), on top of the cap to the player's size (hls.js only; without it the size alone
   * caps it). Read whenever the player's size changes, and on `refreshLevelCap()`.
   */
  levelCap?: (bitrates: readonly number[]) => number;
  /**
   * Where each media request (playlist, segment) goes, given what it is as it goes out: the QoE
   * report adds its CMCD there (./qoe). hls.js only: the browser's own HLS has no such hook.
   */
  requestAddress?: (url: string, request: MediaRequest) => string;
  /** A fatal media error hls.js recovered from in place (hls.js's name for it): for the QoE report. */
  onRecovered?: (detail: string) => void;
}

export interface PlaybackEngine {
  readonly kind: "hls" | "native";
  /** What plays the stream and its version, as the QoE beacons name it. */
  readonly player: { name: "hls.js" | "native"; version: string };
  readonly renditions: RenditionList;
  /** Plays `source` from its start (VOD), its live position (live), or `startAt` stream seconds. */
  load(source: PlaybackSource, startAt?: number | null): void;
  /** The same stream under a new token: later requests carry it (its cookie); nothing reloads. */
  swapToken(url: string): void;
  timeline(): Timeline;
  /** Live streams: the seekable window (media seconds); null for VOD or before it is known. */
  liveWindow(): LiveWindow | null;
  /** Live streams: where "live" plays (a few segments behind the newest), media seconds. */
  livePosition(): number | null;
  /** The height of the rendition playing, if known. */
  playingHeight(): number | null;
  /** The bitrate of the rendition playing (its BANDWIDTH, bits per second), if known. */
  playingBitrate(): number | null;
  /** Applies the options' `levelCap` again now (what it depends on changed, the player's size did not). */
  refreshLevelCap(): void;
  seekToLive(): void;
  /** Seeks to a stream time; false when the stream's clock is not known yet (it is kept for later). */
  seekStream(streamSeconds: number): boolean;
  /** Starts over after a fatal error, where playback was. */
  retry(): void;
  destroy(): void;
}

/** Fatal media errors recovered in place before giving up, within this window. */
const MEDIA_RECOVERIES = 3;
const MEDIA_RECOVERY_WINDOW_MS = 30_000;
/** Recoveries closer together than this also swap the audio codec (hls.js's advice). */
const MEDIA_RECOVERY_SWAP_MS = 3_000;
/** Back buffer kept behind the playhead (a viewer who rewinds further loads it again). */
const BACK_BUFFER_SECONDS = 90;

function retryAfter(data: ErrorData): number | null {
  const xhr = data.networkDetails as XMLHttpRequest | undefined;
  const header = typeof xhr?.getResponseHeader === "function" ? xhr.getResponseHeader("Retry-After") : null;
  const seconds = header ? Number(header) : NaN;
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
}

/** hls.js's load policy with a 403 made retryable: the retry goes out with the renewed token's cookie. */
function withTokenRetry(policy: LoadPolicy, onForbidden: () => void): LoadPolicy {
  const errorRetry = policy.default.errorRetry;
  const shouldRetry: RetryConfig["shouldRetry"] = (
    config,
    count,
    _timeout,
    response?: LoaderResponse,
    retry = false,
  ) => {
    if (response?.code === 403 && config && count < Math.min(2, config.maxNumRetry)) {
      onForbidden();
      return true;
    }
    return retry;
  };
  return { default: { ...policy.default, errorRetry: errorRetry && { ...errorRetry, shouldRetry } } };
}

/** Anchors of a live playlist: its first segment and every one after a discontinuity, with their PDT. */
function anchorsOf(details: LevelDetails): TimeAnchor[] {
  const anchors: TimeAnchor[] = [];
  let cc = NaN;
  for (const fragment of details.fragments) {
    const pdt = fragment.programDateTime;
    if (pdt !== null && Number.isFinite(pdt) && fragment.cc !== cc) {
      anchors.push({ mediaTime: fragment.start, wallClockMs: pdt });
      cc = fragment.cc;
    }
  }
  return anchors;
}

type LoaderClass<C extends LoaderContext> = new (config: HlsConfig) => Loader<C>;

/**
 * hls.js's default loader sending each request where `address` says (null: where hls.js says).
 * As hls.js's own CMCD controller does, the context's address is replaced before it goes out.
 */
function addressingLoader<C extends LoaderContext>(address: ((context: C) => string) | null): LoaderClass<C> {
  const Base = HlsJs.DefaultConfig.loader as unknown as LoaderClass<C>;
  if (!address) return Base;
  return class AddressingLoader extends Base {
    load(context: C, config: LoaderConfiguration, callbacks: LoaderCallbacks<C>): void {
      context.url = address(context);
      super.load(context, config, callbacks);
    }
  };
}

/**
 * A playlist loader (`Base`) with every playlist's text passed through `rewrite` before hls.js
 * parses it (one loader class per stream: the rewrite keeps state).
 */
function rewritingPlaylistLoader(
  rewrite: (text: string) => string,
  Base: LoaderClass<PlaylistLoaderContext>,
): PlaylistLoaderConstructor {
  class RewritingLoader extends Base {
    load(
      context: PlaylistLoaderContext,
      config: LoaderConfiguration,
      callbacks: LoaderCallbacks<PlaylistLoaderContext>,
    ): void {
      const onSuccess = callbacks.onSuccess;
      super.load(context, config, {
        ...callbacks,
        onSuccess: (response, stats, loaded, details) => {
          if (typeof response.data === "string") response.data = rewrite(response.data);
          onSuccess(response, stats, loaded, details);
        },
      });
    }
  }
  return RewritingLoader as unknown as PlaylistLoaderConstructor;
}

/** What the engine keeps of hls.js's cap-level controller: the check it runs on each change of size. */
interface SizeCap {
  detectPlayerSize(): void;
}

/**
 * hls.js's cap to the player's size (`capLevelToPlayerSize`), lowered further to `cap` of the
 * stream's bitrates (hls.js sorts its levels lowest first). `created` hears of the controller, so
 * the cap can be applied again when `cap`'s own inputs change.
 */
function cappedLevelController(
  cap: (bitrates: readonly number[]) => number,
  created: (controller: SizeCap) => void,
): typeof CapLevelController {
  return class CappedLevelController extends CapLevelController {
    readonly #hls: HlsJs;
    constructor(hls: HlsJs) {
      super(hls);
      this.#hls = hls;
      created(this);
    }
    getMaxLevel(capLevelIndex: number): number {
      const bySize = super.getMaxLevel(capLevelIndex);
      return Math.min(bySize, cap(this.#hls.levels.map((level) => level.bitrate)));
    }
  };
}

/**
 * Gives a <video> what media-chrome reads from a media element beyond the standard ones: the
 * stream type, the live window, where "live" begins and the renditions; and keeps seeks on a live
 * stream off the window's first target duration (hls.js #4870).
 */
function instrument(video: HTMLVideoElement, engine: () => PlaybackEngine | null, renditions: RenditionList): void {
  const { get: getTime, set: setTime } =
    Object.getOwnPropertyDescriptor(HTMLMediaElement.prototype, "currentTime") ?? {};
  Object.defineProperties(video, {
    streamType: {
      configurable: true,
      get: () => {
        const current = engine();
        if (!current) return "unknown";
        return current.timeline().kind === "live" ? "live" : "on-demand";
      },
    },
    // Every live stream here can be rewound: an infinite target window means "DVR" to media-chrome.
    targetLiveWindow: { configurable: true, get: () => (engine()?.timeline().kind === "live" ? Infinity : NaN) },
    liveEdgeStart: {
      configurable: true,
      get: () => {
        const window = engine()?.liveWindow();
        const live = engine()?.livePosition();
        return window && live != null ? live - Math.max(3, window.targetDuration * 1.5) : NaN;
      },
    },
    videoRenditions: { configurable: true, value: renditions },
  });
  if (!getTime || !setTime) return;
  Object.defineProperty(video, "currentTime", {
    configurable: true,
    get(this: HTMLVideoElement) {
      return getTime.call(this) as number;
    },
    set(this: HTMLVideoElement, value: number) {
      const window = engine()?.liveWindow();
      setTime.call(this, window ? clampSeek(value, window) : value);
    },
  });
}

/** Seconds buffered ahead of the playhead, in the range that holds it. */
function bufferedAhead(video: HTMLVideoElement): number {
  const { buffered, currentTime } = video;
  for (let i = 0; i < buffered.length; i += 1)
    if (buffered.start(i) <= currentTime + 0.1 && currentTime <= buffered.end(i)) return buffered.end(i) - currentTime;
  return 0;
}

/** Announces the stream's new shape to media-chrome (which listens to these on the media). */
function announceShape(video: HTMLVideoElement): void {
  for (const type of ["streamtypechange", "targetlivewindowchange", "seekablechange"])
    video.dispatchEvent(new Event(type));
}

class HlsEngine implements PlaybackEngine {
  readonly kind = "hls" as const;
  readonly player = { name: "hls.js" as const, version: HlsJs.version };
  readonly renditions = new RenditionList();
  #hls: HlsJs | null = null;
  #source: PlaybackSource | null = null;
  #details: LevelDetails | null = null;
  #anchors: TimeAnchor[] = [];
  #pendingStart: number | null = null;
  #recoveries: number[] = [];
  #unprobe: () => void = () => undefined;
  #sizeCap: SizeCap | null = null;
  readonly #video: HTMLVideoElement;
  readonly #options: EngineOptions;

  constructor(video: HTMLVideoElement, options: EngineOptions) {
    this.#video = video;
    this.#options = options;
    this.renditions.onSelect = (index) => {
      const hls = this.#hls;
      if (!hls) return;
      // A chosen rendition plays at once (hls.js flushes what is buffered); automatic lets ABR pick.
      if (index < 0) hls.nextLevel = -1;
      else hls.currentLevel = index;
    };
  }

  /** Where each request of `hls()` goes (./qoe's CMCD); null when nobody asked. */
  #addressing(hls: () => HlsJs | null): ((context: LoaderContext) => string) | null {
    const address = this.#options.requestAddress;
    if (!address) return null;
    return (context) => {
      const current = hls();
      if (!current) return context.url;
      return address(context.url, describeRequest(context, current, this.#video, this.#source?.live ?? false));
    };
  }

  #config(startPosition: number, hls: () => HlsJs | null): Partial<HlsConfig> {
    const forbidden = () => this.#options.onTokenRefused();
    const levelCap = this.#options.levelCap;
    const addressing = this.#addressing(hls);
    return {
      ...(levelCap && {
        capLevelController: cappedLevelController(levelCap, (controller) => (this.#sizeCap = controller)),
      }),
      // The ESM build bundles no transmux worker; segments here are small: main thread it is.
      enableWorker: false,
      // The lowest rendition first (the smallest first segment, so the first frame comes soonest),
      // then ABR climbs; never above what the player's size shows.
      startLevel: 0,
      // ...and played: no bandwidth-test fragment thrown away first.
      testBandwidth: false,
      capLevelToPlayerSize: true,
      startPosition,
      // The seekable range is the live window (MediaSource.setLiveSeekableRange), not 0..duration.
      liveDurationInfinity: true,
      // DVR: no liveMaxLatencyDuration(Count) and no maxLiveSyncPlaybackRate (hls.js #6934): both
      // would pull a viewer who rewound back to live.
      backBufferLength: BACK_BUFFER_SECONDS,
      lowLatencyMode: false,
      // Two segments behind the newest, not hls.js's three: a viewer joining a match mid-stream is
      // 4–5 s behind the venue with 2 s segments, not 7 (measured: the latency bench). Segments
      // are appended only once complete, so two still leave a whole segment in hand.
      liveSyncDurationCount: 2,
      playlistLoadPolicy: withTokenRetry(HlsJs.DefaultConfig.playlistLoadPolicy, forbidden),
      fragLoadPolicy: withTokenRetry(HlsJs.DefaultConfig.fragLoadPolicy, forbidden),
      // Live playlists count discontinuities since 1970: small numbers keep hls.js fast.
      pLoader: rewritingPlaylistLoader(discontinuityRebaser(), addressingLoader<PlaylistLoaderContext>(addressing)),
      ...(addressing && {
        fLoader: addressingLoader<FragmentLoaderContext>(addressing) as unknown as FragmentLoaderConstructor,
      }),
    };
  }

  load(source: PlaybackSource, startAt: number | null = null): void {
    this.#teardown();
    this.#source = source;
    this.#pendingStart = source.live ? startAt : null;
    // The loaders read this stream's own hls.js (a replaced one's late requests are its, not this one's).
    let created: HlsJs | null = null;
    const hls = new HlsJs(this.#config(!source.live && startAt != null ? Math.max(0, startAt) : -1, () => created));
    created = hls;
    this.#hls = hls;
    // Live latency for the benchmark and e2e tests, only on a page that asked for it (./probe).
    this.#unprobe = exposeProbe(window as ProbeHost, hls);
    hls.on(Events.MANIFEST_PARSED, (_event, data) => {
      this.renditions.replace(
        data.levels.map((level, index) => ({
          id: `level-${index}`,
          width: level.width,
          height: level.height,
          bitrate: level.bitrate,
        })),
      );
      this.#options.onUpdate();
    });
    hls.on(Events.LEVEL_UPDATED, (_event, data) => this.#onDetails(data.details));
    hls.on(Events.LEVEL_SWITCHED, () => this.#options.onUpdate());
    hls.on(Events.FRAG_BUFFERED, () => {
      if (this.#recoveries.length) this.#options.onError(null);
    });
    hls.on(Events.ERROR, (_event, data) => this.#onError(data));
    if (source.live) this.#video.addEventListener("timeupdate", this.#catchUp);
    hls.loadSource(source.url);
    hls.attachMedia(this.#video);
    announceShape(this.#video);
  }

  #onDetails(details: LevelDetails): void {
    this.#details = details;
    if (details.live) {
      this.#anchors = anchorsOf(details);
      const pending = this.#pendingStart;
      if (pending !== null && this.#anchors.length) {
        this.#pendingStart = null;
        const target = toMediaTime(pending, this.timeline());
        const window = this.liveWindow();
        if (target !== null && window) this.#hls?.startLoad(clampSeek(target, window));
      }
    }
    announceShape(this.#video);
    this.#options.onUpdate();
  }

  #onError(data: ErrorData): void {
    const hls = this.#hls;
    if (!data.fatal || !hls) return;
    if (data.type === ErrorTypes.MEDIA_ERROR) {
      const now = Date.now();
      this.#recoveries = this.#recoveries.filter((at) => now - at < MEDIA_RECOVERY_WINDOW_MS);
      if (this.#recoveries.length < MEDIA_RECOVERIES) {
        const last = this.#recoveries.at(-1);
        this.#recoveries.push(now);
        if (last !== undefined && now - last < MEDIA_RECOVERY_SWAP_MS) hls.swapAudioCodec();
        hls.recoverMediaError();
        this.#options.onRecovered?.(data.details);
        return;
      }
      this.#options.onError({ kind: "media", retryAfterSeconds: null, detail: data.details });
      return;
    }
    const detail = data.details;
    if (data.type === ErrorTypes.NETWORK_ERROR) {
      const status = data.response?.code;
      if (status === 409) this.#options.onError({ kind: "not-started", retryAfterSeconds: retryAfter(data), detail });
      else if (status === 403 || status === 401)
        this.#options.onError({ kind: "forbidden", retryAfterSeconds: null, detail });
      else this.#options.onError({ kind: "network", retryAfterSeconds: null, detail });
      return;
    }
    this.#options.onError({ kind: "media", retryAfterSeconds: null, detail });
  }

  swapToken(url: string): void {
    if (!this.#source) return;
    this.#source = { ...this.#source, url };
    void renewStreamCookie(url);
  }

  timeline(): Timeline {
    const source = this.#source;
    if (!source?.live) return { kind: "vod" };
    return { kind: "live", originMs: source.originMs ?? 0, anchors: this.#anchors };
  }

  liveWindow(): LiveWindow | null {
    const details = this.#details;
    if (!this.#source?.live || !details?.live || !details.fragments.length) return null;
    return { start: details.fragmentStart, end: details.edge, targetDuration: details.targetduration };
  }

  livePosition(): number | null {
    if (!this.#source?.live) return null;
    return this.#hls?.liveSyncPosition ?? null;
  }

  #playingLevel() {
    const hls = this.#hls;
    return hls && hls.currentLevel >= 0 ? hls.levels[hls.currentLevel] : null;
  }

  playingHeight(): number | null {
    return this.#playingLevel()?.height || null;
  }

  playingBitrate(): number | null {
    return this.#playingLevel()?.bitrate || null;
  }

  refreshLevelCap(): void {
    if (this.#hls) this.#sizeCap?.detectPlayerSize();
  }

  seekToLive(): void {
    const live = this.livePosition();
    if (live !== null) this.#video.currentTime = live;
  }

  seekStream(streamSeconds: number): boolean {
    const target = toMediaTime(streamSeconds, this.timeline());
    if (target === null) {
      this.#pendingStart = streamSeconds;
      return false;
    }
    this.#video.currentTime = target;
    return true;
  }

  retry(): void {
    const source = this.#source;
    if (!source) return;
    const at = this.#currentStreamTime();
    this.#options.onError(null);
    this.load(source, at);
  }

  #currentStreamTime(): number | null {
    const time = this.#video.currentTime;
    return time > 0 ? toStreamTime(time, this.timeline()) : null;
  }

  /** A live viewer near live, later than hls.js's target, plays a little faster until there (./dvr). */
  #catchUp = () => {
    const hls = this.#hls;
    const video = this.#video;
    const target = hls?.targetLatency;
    if (!hls || !this.#details?.live || target == null || video.paused || !Number.isFinite(hls.latency)) return;
    const ahead = bufferedAhead(video);
    const rate = catchUpRate(hls.latency - target, this.#details.targetduration, ahead, video.playbackRate);
    if (rate !== video.playbackRate) video.playbackRate = rate;
  };

  #teardown(): void {
    this.#video.removeEventListener("timeupdate", this.#catchUp);
    // Only the catching up's own rate is undone: a VOD viewer's chosen speed stays theirs.
    if (this.#source?.live && this.#video.playbackRate === CATCH_UP_RATE) this.#video.playbackRate = 1;
    this.#unprobe();
    this.#hls?.destroy();
    this.#hls = null;
    this.#sizeCap = null;
    this.#details = null;
    this.#anchors = [];
    this.#recoveries = [];
    this.renditions.replace([]);
  }

  destroy(): void {
    this.#teardown();
    this.#source = null;
  }
}

/**
 * The browser's own HLS (Safari before ManagedMediaSource): no request hooks, and none needed: the
 * stream's first request sets its token's cookie, which the browser's own requests carry; a new
 * token renews the cookie and keeps the `src`.
 */
class NativeEngine implements PlaybackEngine {
  readonly kind = "native" as const;
  // The browser's own player says no version of its own.
  readonly player = { name: "native" as const, version: "native" };
  readonly renditions = new RenditionList();
  #source: PlaybackSource | null = null;
  #pendingStart: number | null = null;
  #recoveries: number[] = [];
  readonly #video: HTMLVideoElement;
  readonly #options: EngineOptions;

  constructor(video: HTMLVideoElement, options: EngineOptions) {
    this.#video = video;
    this.#options = options;
    video.addEventListener("error", this.#onMediaError);
    video.addEventListener("loadedmetadata", this.#onMetadata);
    video.addEventListener("durationchange", this.#onShape);
  }

  #onShape = () => {
    announceShape(this.#video);
    this.#options.onUpdate();
  };

  #onMetadata = () => {
    const pending = this.#pendingStart;
    this.#pendingStart = null;
    if (pending !== null) this.seekStream(pending);
    this.#onShape();
  };

  #onMediaError = () => {
    const error = this.#video.error;
    if (!error || !this.#source) return;
    if (error.code === MediaError.MEDIA_ERR_DECODE) {
      const now = Date.now();
      this.#recoveries = this.#recoveries.filter((at) => now - at < MEDIA_RECOVERY_WINDOW_MS);
      if (this.#recoveries.length < MEDIA_RECOVERIES) {
        this.#recoveries.push(now);
        this.#resume(this.#source.url);
        return;
      }
      this.#options.onError({ kind: "media", retryAfterSeconds: null });
    } else if (error.code === MediaError.MEDIA_ERR_SRC_NOT_SUPPORTED) {
      this.#options.onError({ kind: "unsupported", retryAfterSeconds: null });
    } else {
      this.#options.onError({ kind: "network", retryAfterSeconds: null });
    }
  };

  load(source: PlaybackSource, startAt: number | null = null): void {
    this.#source = source;
    this.#pendingStart = startAt;
    // The first request carries the token in its query and sets its cookie for the rest.
    this.#video.src = source.url;
    this.#onShape();
  }

  /** A new `src` (after a decode error), resumed where playback was. */
  #resume(url: string): void {
    if (!this.#source) return;
    const wasPlaying = !this.#video.paused;
    const at = this.#streamTime();
    this.#source = { ...this.#source, url };
    this.#pendingStart = at;
    this.#video.src = url;
    if (wasPlaying) void this.#video.play().catch(() => undefined);
  }

  #streamTime(): number | null {
    const time = this.#video.currentTime;
    return time > 0 ? toStreamTime(time, this.timeline()) : null;
  }

  #startDate(): number | null {
    const video = this.#video as HTMLVideoElement & { getStartDate?: () => Date };
    const start = video.getStartDate?.().getTime();
    return start !== undefined && Number.isFinite(start) ? start : null;
  }

  swapToken(url: string): void {
    if (!this.#source || url === this.#source.url) return;
    // The browser asks for playlists by itself, relative to the address it was given: they go
    // with the cookie, which the new token replaces; the src stays (no reload, no glitch).
    this.#source = { ...this.#source, url };
    void renewStreamCookie(url);
  }

  timeline(): Timeline {
    const source = this.#source;
    if (!source?.live) return { kind: "vod" };
    const start = this.#startDate();
    return {
      kind: "live",
      originMs: source.originMs ?? 0,
      anchors: start === null ? [] : [{ mediaTime: 0, wallClockMs: start }],
    };
  }

  liveWindow(): LiveWindow | null {
    const seekable = this.#video.seekable;
    if (!this.#source?.live || !seekable.length) return null;
    // The browser does not tell the target duration: the server's segments are 2 s, 6 s is safe.
    return { start: seekable.start(0), end: seekable.end(seekable.length - 1), targetDuration: 6 };
  }

  livePosition(): number | null {
    const window = this.liveWindow();
    return window ? Math.max(window.start, window.end - 3 * 2) : null;
  }

  playingHeight(): number | null {
    return this.#video.videoHeight || null;
  }

  /** The browser does not tell which rendition it plays. */
  playingBitrate(): number | null {
    return null;
  }

  /** The browser picks its renditions itself. */
  refreshLevelCap(): void {
    // Nothing to apply: no cap reaches the browser's own HLS.
  }

  seekToLive(): void {
    const live = this.livePosition();
    if (live !== null) this.#video.currentTime = live;
  }

  seekStream(streamSeconds: number): boolean {
    if (!this.#source) return false;
    const target = toMediaTime(streamSeconds, this.timeline());
    if (target === null || this.#video.readyState === HTMLMediaElement.HAVE_NOTHING) {
      this.#pendingStart = streamSeconds;
      return false;
    }
    this.#video.currentTime = target;
    return true;
  }

  retry(): void {
    if (!this.#source) return;
    this.#options.onError(null);
    this.load(this.#source, this.#streamTime());
  }

  destroy(): void {
    this.#video.removeEventListener("error", this.#onMediaError);
    this.#video.removeEventListener("loadedmetadata", this.#onMetadata);
    this.#video.removeEventListener("durationchange", this.#onShape);
    this.#video.removeAttribute("src");
    this.#video.load();
    this.#source = null;
  }
}

/** Which engine this browser gets: hls.js wherever it works (Chromium also claims native HLS). */
export function engineKind(video: HTMLVideoElement): "hls" | "native" | null {
  if (HlsJs.isSupported()) return "hls";
  if (video.canPlayType("application/vnd.apple.mpegurl")) return "native";
  return null;
}

/**
 * An engine for `video`, with the properties media-chrome reads installed on it; null when this
 * browser plays HLS in no way at all.
 */
export function createEngine(video: HTMLVideoElement, options: EngineOptions): PlaybackEngine | null {
  const kind = engineKind(video);
  if (!kind) return null;
  const engine = kind === "hls" ? new HlsEngine(video, options) : new NativeEngine(video, options);
  instrument(video, () => engine, engine.renditions);
  return engine;
}
