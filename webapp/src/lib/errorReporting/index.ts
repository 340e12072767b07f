import type { AppConfig } from "@/lib/config";

export type ErrorReportingSettings = AppConfig["error_reporting"];

/**
 * Starts error reporting when the tenant configured a DSN (GET /api/config `error_reporting`).
 * Without one nothing happens and nothing is downloaded: the SDK is its own chunk, fetched only
 * here. Resolves whether reporting runs.
 */
export async function startErrorReporting(settings: ErrorReportingSettings): Promise<boolean> {
  if (!settings.dsn) return false;
  const { initSentry } = await import("./sentry");
  initSentry({ ...settings, dsn: settings.dsn });
  return true;
}
