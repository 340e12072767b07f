/*
 * One view: one play attempt of one event's media (Conviva's sense), from the play intent to its
 * exit, told as the contract's beacons (openapi.yaml `record_qoe_beacons`). The view hears what
 * the <video> does (./playerReport) and decides what it means:
 *
 * - The intent (`start`) is the first request to play the source (the media's `play`: the
 *   player's own once any pre-roll is over, or the viewer's); `startup` is the first frame after
 *   it, so the pre-roll's time is not in it.
 * - A stall is playback that waits for data after its first frame, while the viewer wants it to
 *   play. Waiting that a seek caused is not a stall, from the seek until frames play again (the
 *   viewer asked for it, and players agree not to count it). hls.js itself moves the playhead a
 *   little to get out of a stall (its nudges, skipping a hole of up to a segment): a jump of at most
 *   NUDGE_SECONDS during a stall is its, and the stall goes on; a longer one is the viewer's, and
 *   ends it there. A pause ends a stall too (the viewer no longer waits for it).
 * - `watched` is time with frames playing (not paused, stalled or waiting for a seek), sent at
 *   least every 15 s, and before a change of rendition so that each is counted at its own bitrate.
 * - Beacons before the intent wait for it (an error while the pre-roll plays); a view that ends
 *   before its intent was never a play attempt and reports nothing.
 */
import type { components } from "@/api/schema.gen";

export type Beacon = components["schemas"]["QoeBeacon"];

/** A jump of the playhead during a stall up to this long is hls.js getting out of it, not a seek. */
export const NUDGE_SECONDS = 2.5;
/** The contract's bound of `ms`. */
const MAX_MS = 86_400_000;

/** What plays: the rendition's bitrate (kbps) and name (`720p`), when known. */
export interface Rendition {
  bitrateKbps: number | null;
  rendition: string | null;
}

export interface ViewError {
  code: string;
  /** The view ended with it. */
  fatal: boolean;
  /** A refusal by design (entitlement, region, a stream not started), not a failure. */
  business: boolean;
}

export interface ViewOptions {
  /** What every beacon of the view says of it. */
  identity: Pick<Beacon, "view" | "event" | "asset" | "player" | "playerVersion">;
  emit: (beacon: Beacon) => void;
  /** Epoch milliseconds. */
  now: () => number;
}

type Phase = "idle" | "starting" | "playing" | "stalled" | "seeking" | "paused" | "ended";

const NOTHING: Rendition = { bitrateKbps: null, rendition: null };
const ms = (value: number) => Math.min(MAX_MS, Math.max(0, Math.round(value)));

export class View {
  #phase: Phase = "idle";
  #framePlayed = false;
  #intentAt = 0;
  #stallSince = 0;
  /** Since when frames have played uncounted (while playing). */
  #playingSince = 0;
  /** Played since the last `watched`, ms. */
  #played = 0;
  #level: Rendition = NOTHING;
  #lastError: string | null = null;
  /** Errors before the intent, reported after it. */
  #early: ViewError[] = [];
  readonly #options: ViewOptions;

  constructor(options: ViewOptions) {
    this.#options = options;
  }

  get id(): string {
    return this.#options.identity.view;
  }

  /** Its first frame has played. */
  get framePlayed(): boolean {
    return this.#framePlayed;
  }

  get ended(): boolean {
    return this.#phase === "ended";
  }

  /** The viewer (or the player for them) asked to play. */
  intent(): void {
    if (this.#phase !== "idle") return;
    this.#phase = "starting";
    this.#intentAt = this.#options.now();
    this.#emit("start");
    const early = this.#early;
    this.#early = [];
    for (const error of early) this.error(error);
  }

  /** Frames play: the first one (`startup`), or again after a stall, a seek or a pause. */
  playing(level: Rendition): void {
    const now = this.#options.now();
    switch (this.#phase) {
      case "starting":
        this.#framePlayed = true;
        this.#level = level;
        this.#emit("startup", { ms: ms(now - this.#intentAt), bitrateKbps: level.bitrateKbps });
        break;
      case "stalled":
        this.#emit("rebuffer", { ms: ms(now - this.#stallSince) });
        break;
      case "seeking":
      case "paused":
        break;
      default: // idle (no intent seen: nothing is timed) or already playing or ended
        return;
    }
    this.#phase = "playing";
    this.#playingSince = now;
  }

  /** Playback waits for data (the media's `waiting` outside a seek). */
  waiting(): void {
    if (this.#phase !== "playing") return; // before the first frame it is the startup; after a seek, the seek's
    this.#count();
    this.#phase = "stalled";
    this.#stallSince = this.#options.now();
  }

  /** The playhead moved by `jumpSeconds` (a seek). */
  seeking(jumpSeconds: number): void {
    if (this.#phase === "stalled") {
      if (jumpSeconds <= NUDGE_SECONDS) return;
      this.#endStall();
    } else if (this.#phase === "playing") {
      this.#count();
    } else return;
    this.#phase = "seeking";
  }

  paused(): void {
    if (this.#phase === "playing") this.#count();
    else if (this.#phase === "stalled") this.#endStall();
    else if (this.#phase !== "seeking") return;
    this.#phase = "paused";
  }

  /** What plays now: a change after the first frame is a `bitrate`, after the time at the old one. */
  level(level: Rendition): void {
    if (!this.#framePlayed || this.#phase === "ended") return;
    if (level.bitrateKbps === this.#level.bitrateKbps && level.rendition === this.#level.rendition) return;
    if (level.bitrateKbps === null && level.rendition === null) return; // unknown for a moment: no change
    this.watched();
    this.#level = level;
    this.#emit("bitrate", { bitrateKbps: level.bitrateKbps });
  }

  /** Reports the time played since the last report, if any (the report calls it every few seconds). */
  watched(): void {
    if (!this.#framePlayed || this.#phase === "ended") return;
    this.#count();
    if (this.#played < 1) return;
    this.#emit("watched", { ms: ms(this.#played), bitrateKbps: this.#level.bitrateKbps });
    this.#played = 0;
  }

  /** An error; a fatal one ends the view. The same non-fatal error again is not repeated. */
  error(error: ViewError): void {
    if (this.#phase === "ended") return;
    if (this.#phase === "idle") {
      this.#early.push(error);
      return;
    }
    if (!error.fatal && error.code === this.#lastError) return;
    this.#lastError = error.code;
    this.#emit("error", { code: error.code, fatal: error.fatal, business: error.business });
    if (error.fatal) this.exit();
  }

  /** The view ends: the page goes, the player goes, another source plays, or a fatal error. */
  exit(): void {
    if (this.#phase === "ended") return;
    const reported = this.#phase !== "idle";
    if (this.#phase === "stalled") this.#endStall();
    this.#count();
    this.#phase = "ended";
    if (!reported) return;
    this.#emit("exit", { ms: ms(this.#played), bitrateKbps: this.#level.bitrateKbps, beforeStart: !this.#framePlayed });
    this.#played = 0;
  }

  #endStall(): void {
    this.#emit("rebuffer", { ms: ms(this.#options.now() - this.#stallSince) });
  }

  /** Adds the time played since the last count. */
  #count(): void {
    if (this.#phase !== "playing") return;
    const now = this.#options.now();
    this.#played += now - this.#playingSince;
    this.#playingSince = now;
  }

  #emit(type: Beacon["type"], fields: Partial<Beacon> = {}): void {
    this.#options.emit({
      ...this.#options.identity,
      type,
      rendition: this.#level.rendition,
      at: new Date(this.#options.now()).toISOString(),
      ...fields,
    });
  }
}
