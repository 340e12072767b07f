import type { AppConfig } from "@/lib/config";
import type { Analytics, AnalyticsProperties, AnalyticsSink } from "./types";

export type { Analytics, AnalyticsEvent, AnalyticsProperties, AnalyticsSink } from "./types";

const nothing = (): void => undefined;
const off: Analytics = { identify: nothing, track: nothing, reset: nothing, flush: () => Promise.resolve() };
/** Calls made before the collector's code arrived (at most this many), replayed once it has. */
const MAX_PENDING = 100;
let pending: ((target: Analytics) => void)[] | null = [];
let current: Analytics = off;

function call(run: (target: Analytics) => void): void {
  if (pending) {
    if (pending.length < MAX_PENDING) pending.push(run);
  } else run(current);
}

/**
 * Starts analytics with the tenant's settings (GET /api/config `analytics`). Off (local
 * development): nothing is collected, nothing more is downloaded. On: the collector and the
 * server sink load on the side (not with the first page), take over what was tracked meanwhile,
 * and send what is queued when the page is hidden.
 */
export async function configureAnalytics(settings: AppConfig["analytics"], sink?: AnalyticsSink): Promise<Analytics> {
  if (!settings.enabled) {
    pending = null;
    current = off;
    return current;
  }
  const [{ createCollector }, { apiSink }] = await Promise.all([import("./collector"), import("./apiSink")]);
  current = createCollector({ enabled: true, tenant: settings.tenant, sink: sink ?? apiSink });
  const waiting = pending ?? [];
  pending = null;
  for (const run of waiting) run(current);
  if (typeof document !== "undefined") {
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "hidden") void current.flush();
    });
  }
  return current;
}

/** The app's analytics (spec §7: identify and track events carry the tenant). */
export const analytics: Analytics = {
  identify: (userId: string, traits?: AnalyticsProperties) => call((target) => target.identify(userId, traits)),
  track: (name: string, properties?: AnalyticsProperties) => call((target) => target.track(name, properties)),
  reset: () => call((target) => target.reset()),
  flush: () => (pending ? Promise.resolve() : current.flush()),
};
