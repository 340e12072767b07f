import type { AppConfig } from "@/lib/config";
import type { SurveyRecord } from "@/entities/user";

export type SurveySettings = AppConfig["survey"];

/** Routes where the survey never prompts (spec §2), by route name (src/app/routes.tsx). */
export const SUPPRESSED_ROUTES: ReadonlySet<string> = new Set([
  "auth-login",
  "auth-login-limit",
  "auth-oauth2-callback-provider",
  "auth-password-reset",
  "auth-password-forgot",
  "auth-sign-up",
  "auth-sign-up-personalization",
  "auth-sign-up-subscription",
  "auth-sign-up-subscription-code",
  "auth-sign-up-subscription-buy-id",
  "payment-failure",
  "payment-success",
  "payment-processing",
  "redirect-events-referenceId",
  "club",
  "open-app",
]);
/** With their leagueId, categoryId and followed variants. */
const SUPPRESSED_PREFIXES = ["auth-sign-up-following-league", "auth-sign-up-following-category"];

const MINUTE = 60_000;

export function isSuppressedRoute(name: string | undefined): boolean {
  if (!name) return true; // a page without a name is not known to be safe to interrupt
  return SUPPRESSED_ROUTES.has(name) || SUPPRESSED_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/** Submitted or closed: never asked again (spec §4). */
export function isFinished(record: SurveyRecord | undefined): boolean {
  return Boolean(record?.submitted || record?.closed);
}

function time(iso: string | null | undefined): number | null {
  if (!iso) return null;
  const value = Date.parse(iso);
  return Number.isNaN(value) ? null : value;
}

export interface SurveyViewer {
  /** Account creation date (ISO). */
  added: string;
  options: Record<string, SurveyRecord>;
}

/**
 * When the viewer may be asked, in epoch milliseconds, ignoring the route and the on-page delay;
 * null when never (no form configured, signed out, submitted or closed). Spec §5: the account is
 * older than the waiting period; spec §4: after Later, ask again after the skip delay.
 */
export function promptAllowedFrom(settings: SurveySettings, viewer: SurveyViewer | null): number | null {
  if (!settings.form_url || !viewer) return null;
  const record = viewer.options[settings.name];
  if (isFinished(record)) return null;
  const added = time(viewer.added);
  if (added === null) return null;
  let from = added + settings.wait_after_signup_minutes * MINUTE;
  const skipped = time(record?.skipped);
  if (skipped !== null) from = Math.max(from, skipped + settings.skip_delay_minutes * MINUTE);
  return from;
}

/** Spec §5 as one rule: the survey may prompt now on this route. */
export function isSurveyEligible(
  settings: SurveySettings,
  viewer: SurveyViewer | null,
  routeName: string | undefined,
  now: number,
): boolean {
  const from = promptAllowedFrom(settings, viewer);
  return from !== null && now >= from && !isSuppressedRoute(routeName);
}

/**
 * How long to wait, on an allowed route, before the start dialog opens: the on-page delay (20 s,
 * 5 s in the alternate flavour), or until the viewer becomes eligible if that is later; null
 * when never.
 */
export function promptDelay(settings: SurveySettings, viewer: SurveyViewer | null, now: number): number | null {
  const from = promptAllowedFrom(settings, viewer);
  if (from === null) return null;
  return Math.max(settings.show_after_seconds * 1000, from - now);
}

export type SurveyOutcome = "skipped" | "submitted" | "closed";

/** The record after an outcome; earlier timestamps are kept (spec §3). */
export function recordOutcome(
  name: string,
  record: SurveyRecord | undefined,
  outcome: SurveyOutcome,
  now: Date,
): SurveyRecord {
  return {
    surveyName: name,
    skipped: record?.skipped ?? null,
    submitted: record?.submitted ?? null,
    closed: record?.closed ?? null,
    [outcome]: now.toISOString(),
  };
}

/** The form's address: the built-in form (a path on this server) learns the viewer's language. */
export function surveyFrameUrl(formUrl: string, locale: string, origin: string): URL {
  const url = new URL(formUrl, origin);
  if (url.origin === origin) url.searchParams.set("lang", locale);
  return url;
}

/** What the form posts when it was submitted (server/survey_form.py; other forms may send the same). */
export function isSubmittedMessage(data: unknown): boolean {
  return (
    !!data &&
    typeof data === "object" &&
    (data as { type?: unknown }).type === "touchline-survey" &&
    (data as { status?: unknown }).status === "submitted"
  );
}
