import type { Analytics, AnalyticsEvent, AnalyticsProperties, AnalyticsSink } from "./types";

/** The contract's bounds (openapi.yaml AnalyticsBatch / AnalyticsEvent). */
export const MAX_BATCH = 50;
export const MAX_PROPERTIES = 20;
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

/**
 * Collects identify and track events, each with the tenant and the browser's anonymous id, and
 * hands them to the sink in batches of at most 50. A failed send drops its batch: analytics
 * never retries into a server that is struggling, nor gets in the viewer's way.
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
    queue.push({
      type,
      name,
      tenant,
      anonymousId: currentAnonymousId(),
      timestamp: now().toISOString(),
      properties: cleanProperties(properties),
    });
    if (queue.length >= MAX_BATCH) void flush();
    else if (!timer) timer = setTimeout(() => void flush(), flushDelayMs);
  }

  async function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    const batches: AnalyticsEvent[][] = [];
    while (queue.length) batches.push(queue.splice(0, MAX_BATCH));
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
