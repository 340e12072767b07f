// @vitest-environment node
import { describe, expect, it } from "vitest";
import { mapUserProfile, toProfileUpdate } from "@/entities/user";
import { API_PROFILE } from "../session/fakeServer";

describe("the user profile mapper", () => {
  it("renames the API fields for the UI", () => {
    const user = mapUserProfile(API_PROFILE);
    expect(user).toMatchObject({
      id: API_PROFILE.userId,
      added: API_PROFILE.added,
      email: "ada@example.com",
      fullName: "Ada Lovelace",
      canCreateGlobalTag: true,
      countryName: "United Kingdom",
      postalCode: "HC1 2AB",
      dateOfBirth: "1990-12-10",
      identity: API_PROFILE.identity,
      identityItem: API_PROFILE.identityItem,
    });
    expect(user).not.toHaveProperty("userId");
    expect(user).not.toHaveProperty("displayName");
  });

  it("takes the first club as favoriteClubId formatted '{type}|{id}'", () => {
    expect(mapUserProfile(API_PROFILE).favoriteClubId).toBe("team|6a1c0a8e2b3d4c5e6f7a8b9d");
    expect(mapUserProfile({ ...API_PROFILE, clubList: [] }).favoriteClubId).toBeNull();
  });

  it("keeps the survey records of options", () => {
    const record = {
      surveyName: "survey_user_experience_1",
      skipped: "2026-11-10T20:00:00Z",
      submitted: null,
      closed: null,
    };
    expect(mapUserProfile({ ...API_PROFILE, options: { survey_user_experience_1: record } }).options).toEqual({
      survey_user_experience_1: record,
    });
  });

  it("reads spoiler-free mode apart from the survey records, null when the account never chose", () => {
    const record = { surveyName: "s", skipped: null, submitted: null, closed: null };
    const user = mapUserProfile({ ...API_PROFILE, options: { s: record, spoilerFree: true } });
    expect(user.spoilerFree).toBe(true);
    expect(user.options).toEqual({ s: record });
    expect(mapUserProfile({ ...API_PROFILE, options: { spoilerFree: false } }).spoilerFree).toBe(false);
    expect(mapUserProfile(API_PROFILE).spoilerFree).toBeNull();
  });

  it("reads the go-live mail opt-in apart from the survey records, off when the account never chose", () => {
    const user = mapUserProfile({ ...API_PROFILE, options: { liveAlertMail: true } });
    expect(user.liveAlertMail).toBe(true);
    expect(user.options).toEqual({});
    expect(mapUserProfile(API_PROFILE).liveAlertMail).toBe(false);
  });

  it("sends the go-live mail opt-in as a setting of options", () => {
    expect(toProfileUpdate({ liveAlertMail: true })).toEqual({ options: { liveAlertMail: true } });
    expect(toProfileUpdate({ city: "Leeds" })).not.toHaveProperty("options");
  });

  it("sends fullName back as a trimmed displayName", () => {
    expect(toProfileUpdate({ fullName: "  Ada King ", city: "Leeds" })).toEqual({
      displayName: "Ada King",
      city: "Leeds",
    });
    expect(toProfileUpdate({ phone: null })).toEqual({ phone: null });
  });
});
