/*
 * Pre-roll ads from a VAST document, through @dailymotion/vast-client (loaded only when an event
 * has an ad). An ad never stands between the viewer and the match: an empty VAST, a broken one,
 * no answer within its deadline or nothing playable in it all resolve to "no ad".
 */

/** How long the VAST may take, unless the server says otherwise (the parser's own default is two minutes). */
export const AD_DEADLINE_MS = 2_000;

/** Where the pre-rolls already shown in this tab's session are kept (one key per break). */
export const PREROLLS_SHOWN_KEY = "touchline.prerolls-shown";
/** At most this many keys are kept (the oldest are forgotten first). */
const PREROLLS_KEPT = 200;

type KeyStore = Pick<Storage, "getItem" | "setItem">;

function defaultStore(): KeyStore | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null; // storage disabled: every visit is a first one
  }
}

function shownKeys(store: KeyStore | null): string[] {
  try {
    const parsed: unknown = JSON.parse(store?.getItem(PREROLLS_SHOWN_KEY) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter((key): key is string => typeof key === "string") : [];
  } catch {
    return [];
  }
}

/**
 * Whether the pre-roll `key` (e.g. one event's) is still to be shown in this session: a viewer
 * who comes back to the same event (the match stats and back, a reload) sees its ad once.
 */
export function prerollDue(key: string, store: KeyStore | null = defaultStore()): boolean {
  return !shownKeys(store).includes(key);
}

/** Remembers for this session that the pre-roll `key` was shown (it started playing). */
export function markPrerollShown(key: string, store: KeyStore | null = defaultStore()): void {
  const keys = shownKeys(store).filter((known) => known !== key);
  keys.push(key);
  try {
    store?.setItem(PREROLLS_SHOWN_KEY, JSON.stringify(keys.slice(-PREROLLS_KEPT)));
  } catch {
    // storage full or disabled: the ad may show again, nothing worse
  }
}

/** A media file as the VAST parser gives it (the fields used here). */
export interface VastMediaFile {
  fileURL: string | null;
  mimeType: string | null;
  deliveryType: string | null;
  width: number;
  height: number;
  bitrate: number;
}

/** Tracking of one ad's playback (VASTTracker's methods used here). */
export interface AdTracking {
  trackImpression(): void;
  setDuration(seconds: number): void;
  setProgress(seconds: number): void;
  setMuted(muted: boolean): void;
  setPaused(paused: boolean): void;
  complete(): void;
  skip(): void;
  click(): void;
  errorWithCode(code: string): void;
}

export interface PrerollAd {
  title: string | null;
  mediaUrl: string;
  /** Seconds. */
  duration: number;
  /** Seconds after which the viewer may skip; null: not skippable. */
  skipAfter: number | null;
  clickThrough: string | null;
  tracking: AdTracking;
}

/**
 * The media file to play: a progressive one the browser can play, the one nearest to `width`
 * pixels wide (then the lowest bitrate); null when none can play.
 */
export function pickMediaFile(
  files: readonly VastMediaFile[],
  canPlay: (mimeType: string) => boolean,
  width = 640,
): VastMediaFile | null {
  const playable = files.filter(
    (file) =>
      !!file.fileURL &&
      (file.deliveryType ?? "progressive") === "progressive" &&
      !!file.mimeType &&
      canPlay(file.mimeType),
  );
  playable.sort((a, b) => Math.abs(a.width - width) - Math.abs(b.width - width) || a.bitrate - b.bitrate);
  return playable[0] ?? null;
}

/** VAST's skipoffset as the parser gives it (seconds, or -1/undefined when absent). */
export function skipAfterOf(skipDelay: unknown): number | null {
  return typeof skipDelay === "number" && Number.isFinite(skipDelay) && skipDelay >= 0 ? skipDelay : null;
}

/** Settles with `promise`, or with `fallback` after `ms` milliseconds, whichever comes first. */
export function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  return new Promise<T>((resolve) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(fallback);
      },
    );
  });
}

interface ParsedCreative {
  type?: string;
  duration?: number;
  skipDelay?: unknown;
  mediaFiles?: VastMediaFile[];
  videoClickThroughURLTemplate?: { url?: string } | string | null;
}

interface ParsedAd {
  title?: string | null;
  creatives?: ParsedCreative[];
}

function clickThroughOf(template: ParsedCreative["videoClickThroughURLTemplate"]): string | null {
  const url = typeof template === "string" ? template : template?.url;
  return url && /^https?:\/\//i.test(url) ? url : null;
}

/**
 * The first linear ad of the VAST at `vastUrl` that this browser can play, with its tracker; null
 * for no ad (empty, broken, late or unplayable VAST: reported to the ad's error URLs when it has any).
 */
export async function loadPreroll(
  vastUrl: string,
  canPlay: (mimeType: string) => boolean,
  deadlineMs: number = AD_DEADLINE_MS,
): Promise<PrerollAd | null> {
  const load = async (): Promise<PrerollAd | null> => {
    const { VASTClient, VASTTracker } = await import("@dailymotion/vast-client");
    const client = new VASTClient();
    const response = (await client.get(vastUrl, { timeout: deadlineMs, withCredentials: false })) as {
      ads?: ParsedAd[];
    };
    for (const ad of response.ads ?? []) {
      const creative = ad.creatives?.find((candidate) => candidate.type === "linear");
      if (!creative) continue;
      const tracker = new VASTTracker(client, ad as never, creative as never);
      const file = pickMediaFile(creative.mediaFiles ?? [], canPlay);
      if (!file?.fileURL) {
        tracker.errorWithCode("403"); // VAST: no supported media file
        continue;
      }
      return {
        title: ad.title ?? null,
        mediaUrl: file.fileURL,
        duration: creative.duration && creative.duration > 0 ? creative.duration : 0,
        skipAfter: skipAfterOf(creative.skipDelay),
        clickThrough: clickThroughOf(creative.videoClickThroughURLTemplate),
        tracking: tracker as unknown as AdTracking,
      };
    }
    return null;
  };
  return within(load(), deadlineMs + 250, null);
}
