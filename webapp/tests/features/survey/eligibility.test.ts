// @vitest-environment node
import { describe, expect, it } from "vitest";
import {
  isFinished,
  isSubmittedMessage,
  isSuppressedRoute,
  isSurveyEligible,
  promptAllowedFrom,
  promptDelay,
  recordOutcome,
  surveyFrameUrl,
  type SurveySettings,
  type SurveyViewer,
} from "@/features/survey/eligibility";

const NAME = "survey_user_experience_1";
const settings: SurveySettings = {
  name: NAME,
  form_url: "/survey/user-experience/",
  wait_after_signup_minutes: 7 * 24 * 60,
  show_after_seconds: 20,
  skip_delay_minutes: 1440,
};
const alternate: SurveySettings = {
  ...settings,
  wait_after_signup_minutes: 30,
  show_after_seconds: 5,
  skip_delay_minutes: 10,
};
const DAY = 24 * 60 * 60 * 1000;
const ADDED = Date.parse("2026-11-01T10:00:00Z");
const viewer = (options: SurveyViewer["options"] = {}): SurveyViewer => ({
  added: new Date(ADDED).toISOString(),
  options,
});
const record = (dates: Partial<Record<"skipped" | "submitted" | "closed", string>>) => ({
  surveyName: NAME,
  skipped: null,
  submitted: null,
  closed: null,
  ...dates,
});

describe("survey eligibility (spec §5)", () => {
  it("needs a configured form, a signed-in viewer and an account older than the waiting period", () => {
    expect(isSurveyEligible(settings, viewer(), "home", ADDED + 8 * DAY)).toBe(true);
    expect(isSurveyEligible({ ...settings, form_url: null }, viewer(), "home", ADDED + 8 * DAY)).toBe(false);
    expect(isSurveyEligible(settings, null, "home", ADDED + 8 * DAY)).toBe(false);
    expect(isSurveyEligible(settings, viewer(), "home", ADDED + 7 * DAY - 1)).toBe(false);
    expect(isSurveyEligible(settings, viewer(), "home", ADDED + 7 * DAY)).toBe(true);
    expect(isSurveyEligible(alternate, viewer(), "home", ADDED + 30 * 60_000)).toBe(true);
    expect(isSurveyEligible(alternate, viewer(), "home", ADDED + 29 * 60_000)).toBe(false);
  });

  it("is never shown on the suppressed routes of spec §2", () => {
    const suppressed = [
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
      "auth-sign-up-following-league",
      "auth-sign-up-following-league-followed",
      "auth-sign-up-following-league-leagueId",
      "auth-sign-up-following-league-leagueId-followed",
      "auth-sign-up-following-category",
      "auth-sign-up-following-category-followed",
      "auth-sign-up-following-category-categoryId",
      "auth-sign-up-following-category-categoryId-followed",
      "payment-failure",
      "payment-success",
      "payment-processing",
      "redirect-events-referenceId",
      "club",
      "open-app",
    ];
    for (const name of suppressed) {
      expect(isSuppressedRoute(name), name).toBe(true);
      expect(isSurveyEligible(settings, viewer(), name, ADDED + 8 * DAY), name).toBe(false);
    }
    for (const name of ["index", "home", "events-eventId", "following-league", "account-general", "live"])
      expect(isSuppressedRoute(name), name).toBe(false);
    expect(isSuppressedRoute(undefined)).toBe(true);
  });

  it("never asks again after submit or close; after Later, asks again after the skip delay", () => {
    const now = ADDED + 30 * DAY;
    const submitted = viewer({ [NAME]: record({ submitted: new Date(now - DAY).toISOString() }) });
    const closed = viewer({ [NAME]: record({ closed: new Date(now - 300 * DAY).toISOString() }) });
    expect(isSurveyEligible(settings, submitted, "home", now)).toBe(false);
    expect(isSurveyEligible(settings, closed, "home", now)).toBe(false);
    expect(promptDelay(settings, submitted, now)).toBeNull();
    expect(isFinished(record({ skipped: "2026-11-02T00:00:00Z" }))).toBe(false);

    const skippedAt = now - 60_000;
    const skipped = viewer({ [NAME]: record({ skipped: new Date(skippedAt).toISOString() }) });
    expect(isSurveyEligible(settings, skipped, "home", now)).toBe(false);
    expect(promptAllowedFrom(settings, skipped)).toBe(skippedAt + 1440 * 60_000);
    expect(isSurveyEligible(settings, skipped, "home", skippedAt + 1440 * 60_000)).toBe(true);
    expect(isSurveyEligible(alternate, skipped, "home", skippedAt + 10 * 60_000)).toBe(true);
    // Other surveys' records do not count.
    expect(isSurveyEligible(settings, viewer({ other: record({ closed: "2026-11-02T00:00:00Z" }) }), "home", now)).toBe(
      true,
    );
  });

  it("waits the on-page delay, or until the viewer becomes eligible when that is later", () => {
    expect(promptDelay(settings, viewer(), ADDED + 8 * DAY)).toBe(20_000);
    expect(promptDelay(alternate, viewer(), ADDED + 8 * DAY)).toBe(5_000);
    expect(promptDelay(settings, viewer(), ADDED + 6 * DAY)).toBe(DAY);
    expect(promptDelay({ ...settings, form_url: null }, viewer(), ADDED + 8 * DAY)).toBeNull();
  });
});

describe("survey records (spec §3)", () => {
  it("stamps the outcome and keeps earlier ones", () => {
    const first = recordOutcome(NAME, undefined, "skipped", new Date("2026-11-10T20:00:00Z"));
    expect(first).toEqual(record({ skipped: "2026-11-10T20:00:00.000Z" }));
    const second = recordOutcome(NAME, first, "submitted", new Date("2026-11-12T09:30:00Z"));
    expect(second).toEqual(record({ skipped: "2026-11-10T20:00:00.000Z", submitted: "2026-11-12T09:30:00.000Z" }));
    expect(recordOutcome(NAME, first, "closed", new Date("2026-11-13T00:00:00Z")).closed).toBe(
      "2026-11-13T00:00:00.000Z",
    );
  });
});

describe("the form", () => {
  it("tells the built-in form the viewer's language, and leaves other sites' addresses alone", () => {
    const origin = "https://watch.touchline.example";
    expect(surveyFrameUrl("/survey/user-experience/", "he", origin).href).toBe(
      `${origin}/survey/user-experience/?lang=he`,
    );
    expect(surveyFrameUrl("https://forms.example.com/f/1?embed=1", "he", origin).href).toBe(
      "https://forms.example.com/f/1?embed=1",
    );
  });

  it("recognises only the form's submitted message", () => {
    expect(isSubmittedMessage({ type: "touchline-survey", status: "submitted", answers: { rating: 5 } })).toBe(true);
    expect(isSubmittedMessage({ type: "touchline-survey", status: "closed" })).toBe(false);
    expect(isSubmittedMessage("submitted")).toBe(false);
    expect(isSubmittedMessage(null)).toBe(false);
  });
});
