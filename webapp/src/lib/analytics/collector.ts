import type { Analytics, AnalyticsEvent, AnalyticsProperties, AnalyticsSink } from "./types";

/** The contract's bounds (openapi.yaml AnalyticsBatch / AnalyticsEvent). */
export const MAX_BATCH = 50;
export const MAX_PROPERTIES = 20;
/** The server's default bounds (openapi.yaml record_analytics_events): bytes as JSON in UTF-8. */
export const MAX_EVENT_BYTES = 4096;
export const MAX_BATCH_BYTES = 32 * 1024;
export const MAX_ANONYMOUS_IDS = 4;
const MAX_TEXT = 500;
const PROPERTY_NAME = /^[A-Za-z0-9_.-]{1,40}$/;
const EVENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,79}$/;
export const ANONYMOUS_ID_KEY = "touchline-analytics-id";

export interface CollectorOptions {
  /** Off: every call is a no-op (local development, spec §9). */
  enabled: boolean;
  /** Every event carries it (spec §7). */
  tenant: string;
  sink: AnalyticsSink;
  /** Events wait this long for company before a batch goes (a full batch goes at once). */
  flushDelayMs?: number;
  now?: () => Date;
  storage?: Pick<Storage, "getItem" | "setItem" | "removeItem"> | null;
  randomId?: () => string;
}

function defaultRandomId(): string {
  const bytes = new Uint8Array(12);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Properties the contract takes: at most 20, names it accepts, texts of at most 500 characters. */
export function cleanProperties(properties: AnalyticsProperties = {}): AnalyticsProperties {
  const clean: AnalyticsProperties = {};
  for (const [name, value] of Object.entries(properties)) {
    if (Object.keys(clean).length >= MAX_PROPERTIES) break;
    if (!PROPERTY_NAME.test(name) || value === undefined) continue;
    if (typeof value === "number" && !Number.isFinite(value)) continue;
    clean[name] = typeof value === "string" ? value.slice(0, MAX_TEXT) : value;
  }
  return clean;
}

const encoder = new TextEncoder();

function byteSize(event: AnalyticsEvent): number {
  return encoder.encode(JSON.stringify(event)).length;
}

/** The batches the server takes: at most 50 events, 32 KB and 4 anonymous ids each, in order. */
export function batchesOf(events: readonly AnalyticsEvent[]): AnalyticsEvent[][] {
  const batches: AnalyticsEvent[][] = [];
  let batch: AnalyticsEvent[] = [];
  let bytes = 0;
  let ids = new Set<string>();
  for (const event of events) {
    const size = byteSize(event);
    const newId = !ids.has(event.anonymousId);
    const full =
      batch.length >= MAX_BATCH || bytes + size > MAX_BATCH_BYTES || (newId && ids.size >= MAX_ANONYMOUS_IDS);
    if (batch.length && full) {
      batches.push(batch);
      batch = [];
      bytes = 0;
      ids = new Set();
    }
    batch.push(event);
    bytes += size;
    ids.add(event.anonymousId);
  }
  if (batch.length) batches.push(batch);
  return batches;
}

/**
 * Collects identify and track events, each with the tenant and the browser's anonymous id, and
 * hands them to the sink in batches the server takes (`batchesOf`); an event too large for the
 * server is dropped. A failed send (a refusal, the server's budget spent) drops its batch:
 * analytics never retries into a server that is struggling, nor gets in the viewer's way.
 */
export function createCollector(options: CollectorOptions): Analytics {
  const { enabled, tenant, sink, flushDelayMs = 2000, now = () => new Date(), randomId = defaultRandomId } = options;
  const storage = options.storage === undefined ? safeLocalStorage() : options.storage;
  let queue: AnalyticsEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  let anonymousId: string | null = null;

  function currentAnonymousId(): string {
    if (anonymousId) return anonymousId;
    let stored: string | null = null;
    try {
      stored = storage?.getItem(ANONYMOUS_ID_KEY) ?? null;
    } catch {
      stored = null;
    }
    anonymousId = stored && /^[A-Za-z0-9_-]{8,64}$/.test(stored) ? stored : randomId();
    try {
      storage?.setItem(ANONYMOUS_ID_KEY, anonymousId);
    } catch {
      // Storage disabled: one id for this page's lifetime.
    }
    return anonymousId;
  }

  function push(type: AnalyticsEvent["type"], name: string, properties?: AnalyticsProperties): void {
    if (!enabled || !EVENT_NAME.test(name)) return;
    const event: AnalyticsEvent = {
      type,
      name,
      tenant,
      anonymousId: currentAnonymousId(),
      timestamp: now().toISOString(),
      properties: cleanProperties(properties),
    };
    if (byteSize(event) > MAX_EVENT_BYTES) return; // the server would refuse its whole batch
    queue.push(event);
    if (queue.length >= MAX_BATCH) void flush();
    else if (!timer) timer = setTimeout(() => void flush(), flushDelayMs);
  }

  async function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    const batches = batchesOf(queue);
    queue = [];
    await Promise.all(batches.map((batch) => sink.send(batch).catch(() => undefined)));
  }

  return {
    identify: (userId, traits) => push("identify", "identify", { ...traits, userId }),
    track: (name, properties) => push("track", name, properties),
    reset() {
      anonymousId = randomId();
      try {
        storage?.setItem(ANONYMOUS_ID_KEY, anonymousId);
      } catch {
        // as above
      }
    },
    flush,
  };
}

function safeLocalStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}
