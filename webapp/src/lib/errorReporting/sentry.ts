import { captureMessage, init, type ErrorEvent } from "@sentry/browser";
import { api } from "@/api/client";
import type { ErrorReportingSettings } from "./index";

let installed = false;

/**
 * The Sentry SDK with spec §9's defaults (25 breadcrumbs, at most 10 events per page session),
 * its default integrations (uncaught errors and rejections, breadcrumbs), and every API answer of
 * 500 or more reported (spec §8), by method and path (never the query or the body).
 */
export function initSentry(settings: ErrorReportingSettings & { dsn: string }): void {
  let sent = 0;
  init({
    dsn: settings.dsn,
    environment: settings.environment,
    maxBreadcrumbs: settings.max_breadcrumbs,
    beforeSend(event: ErrorEvent) {
      if (sent >= settings.max_events) return null;
      sent += 1;
      return event;
    },
  });
  if (installed) return;
  installed = true;
  api.use({
    onResponse({ request, response }) {
      if (response.status >= 500) {
        const path = new URL(request.url).pathname;
        captureMessage(`${response.status} answered to ${request.method} ${path}`, "error");
      }
      return undefined;
    },
  });
}
