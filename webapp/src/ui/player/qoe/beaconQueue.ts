/*
 * The page's beacons on their way to the server (POST /api/qoe/beacons): queued, and sent every
 * `qoe.batch_seconds` (and when the page is hidden or goes) in the batches the server takes: at
 * most 50 beacons naming at most 4 views each. Sending never holds anything up and is never
 * retried: a batch the server refuses (400, 429) or that does not arrive is dropped, and after a
 * 429 nothing is sent until its Retry-After has passed. A report that cannot arrive is worth less
 * than a server under load kept busy.
 */
import type { components } from "@/api/schema.gen";
import type { Beacon } from "./view";

export type Batch = components["schemas"]["QoeBatch"];

/** The contract's bounds (openapi.yaml QoeBatch, record_qoe_beacons). */
export const MAX_BEACONS = 50;
export const MAX_VIEWS = 4;
/** Beacons kept while the server asked to wait; the oldest go first past it. */
export const MAX_QUEUED = 500;
/** How long to wait after a 429 without Retry-After. */
const DEFAULT_RETRY_AFTER_S = 60;

/** What the server said of a batch: after a 429, how long to wait before the next. */
export interface SendOutcome {
  retryAfterSeconds: number | null;
}

export interface QueueOptions {
  send: (batch: Batch) => Promise<SendOutcome>;
  /** The browser's anonymous id (read when a batch goes: it may change, e.g. at sign-out). */
  anonymousId: () => string;
  batchSeconds: number;
  /** Epoch milliseconds. */
  now?: () => number;
}

/** The batches for `beacons`, in order: at most MAX_BEACONS beacons and MAX_VIEWS views each. */
export function batchesOf(beacons: readonly Beacon[]): Beacon[][] {
  const batches: Beacon[][] = [];
  let batch: Beacon[] = [];
  let views = new Set<string>();
  for (const beacon of beacons) {
    const newView = !views.has(beacon.view);
    if (batch.length >= MAX_BEACONS || (newView && views.size >= MAX_VIEWS)) {
      batches.push(batch);
      batch = [];
      views = new Set();
    }
    batch.push(beacon);
    views.add(beacon.view);
  }
  if (batch.length) batches.push(batch);
  return batches;
}

export class BeaconQueue {
  #queued: Beacon[] = [];
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** Nothing is sent before this (epoch ms): the server said to wait. */
  #holdUntil = 0;
  readonly #options: QueueOptions;
  readonly #now: () => number;

  constructor(options: QueueOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  get size(): number {
    return this.#queued.length;
  }

  push(beacon: Beacon): void {
    this.#queued.push(beacon);
    if (this.#queued.length > MAX_QUEUED) this.#queued.splice(0, this.#queued.length - MAX_QUEUED);
    this.#schedule(this.#options.batchSeconds * 1000);
  }

  /** Sends what is queued now, unless the server asked to wait; resolves once the server answered. */
  flush(): Promise<void> {
    this.#clearTimer();
    const wait = this.#holdUntil - this.#now();
    if (wait > 0) {
      this.#schedule(wait);
      return Promise.resolve();
    }
    const batches = batchesOf(this.#queued);
    this.#queued = [];
    const anonymousId = batches.length ? this.#options.anonymousId() : "";
    return Promise.all(batches.map((beacons) => this.#send({ anonymousId, beacons }))).then(() => undefined);
  }

  async #send(batch: Batch): Promise<void> {
    try {
      const { retryAfterSeconds } = await this.#options.send(batch);
      if (retryAfterSeconds !== null)
        this.#holdUntil = Math.max(this.#holdUntil, this.#now() + retryAfterSeconds * 1000);
    } catch {
      // Not arrived (offline, the page went): dropped.
    }
  }

  #schedule(ms: number): void {
    if (this.#timer !== null || !this.#queued.length) return;
    this.#timer = setTimeout(() => void this.flush(), ms);
  }

  #clearTimer(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }
}

/** Seconds a 429 says to wait (its Retry-After), for `SendOutcome`. */
export function retryAfterOf(response: Response): SendOutcome {
  if (response.status !== 429) return { retryAfterSeconds: null };
  const seconds = Number(response.headers.get("Retry-After"));
  return { retryAfterSeconds: Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_RETRY_AFTER_S };
}
