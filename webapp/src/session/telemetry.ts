import type { AppConfig } from "@/lib/config";
import { analytics, configureAnalytics } from "@/lib/analytics";
import { startErrorReporting } from "@/lib/errorReporting";
import { sessionStore } from "./store";

/**
 * Tells analytics who the viewer is: identify on sign-in (and for a stored session at start-up),
 * reset when the viewer signs out or changes (spec §4: logout resets analytics). Returns the
 * function that stops it.
 */
export function watchAnalyticsIdentity(): () => void {
  const user = sessionStore.getState().user;
  if (user) analytics.identify(user.id);
  return sessionStore.subscribe((state, previous) => {
    const id = state.user?.id;
    const before = previous.user?.id;
    if (id === before) return;
    if (before) analytics.reset();
    if (id) analytics.identify(id);
  });
}

/**
 * Error reporting (only with a DSN; the SDK is a chunk of its own) and analytics (off in local
 * development), started once the configuration is known. main.tsx loads this module on the side:
 * none of it is part of the first load.
 */
export async function startTelemetry(config: Pick<AppConfig, "analytics" | "error_reporting">): Promise<void> {
  watchAnalyticsIdentity();
  await Promise.all([startErrorReporting(config.error_reporting), configureAnalytics(config.analytics)]);
}
