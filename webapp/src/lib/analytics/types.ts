import type { components } from "@/api/schema.gen";

/** One identify or track event as the contract takes it (openapi.yaml AnalyticsEvent). */
export type AnalyticsEvent = components["schemas"]["AnalyticsEvent"];
export type AnalyticsValue = string | number | boolean | null;
export type AnalyticsProperties = Record<string, AnalyticsValue>;

/** Where collected events go; the default posts them to the server (./apiSink.ts). */
export interface AnalyticsSink {
  send(events: AnalyticsEvent[]): Promise<void>;
}

/** What the app calls: identify the viewer, track what happened, forget the viewer (logout). */
export interface Analytics {
  identify(userId: string, traits?: AnalyticsProperties): void;
  track(name: string, properties?: AnalyticsProperties): void;
  /** A new anonymous id from here on (spec §4: logout resets analytics); queued events still go. */
  reset(): void;
  /** Sends what is queued now. */
  flush(): Promise<void>;
}
