import type { components } from "@/api/schema.gen";

type ApiProfile = components["schemas"]["Profile"];
export type SurveyRecord = components["schemas"]["SurveyRecord"];
export type Gender = ApiProfile["gender"];
export type UserRole = ApiProfile["role"];

/** The signed-in viewer as the UI uses it (spec §3 "User profile"). */
export interface UserProfile {
  id: string;
  /** Account creation date (ISO). */
  added: string;
  email: string | null;
  city: string | null;
  gender: Gender;
  dateOfBirth: string | null;
  fullName: string;
  phone: string | null;
  countryName: string | null;
  canCreateGlobalTag: boolean;
  /** The first club of the profile, formatted '{type}|{id}' (e.g. 'team|6a1c…'), or null. */
  favoriteClubId: string | null;
  postalCode: string | null;
  /** Survey records keyed by survey name (e.g. survey_user_experience_1). */
  options: Record<string, SurveyRecord>;
  /** Spoiler-free mode as the account keeps it (options.spoilerFree); null when never chosen. */
  spoilerFree: boolean | null;
  /** Go-live alerts by mail for what the viewer follows (options.liveAlertMail); off when never chosen. */
  liveAlertMail: boolean;
  identity: string | null;
  identityItem: string | null;
  role: UserRole;
}

export function mapUserProfile(profile: ApiProfile): UserProfile {
  const { spoilerFree, liveAlertMail, ...records } = profile.options ?? {};
  return {
    id: profile.userId,
    added: profile.added,
    email: profile.email,
    city: profile.city,
    gender: profile.gender,
    dateOfBirth: profile.dateOfBirth,
    fullName: profile.displayName,
    phone: profile.phone,
    countryName: profile.countryName,
    canCreateGlobalTag: profile.globalTags,
    favoriteClubId: favoriteClubOf(profile.clubList),
    postalCode: profile.postalCode,
    options: records as Record<string, SurveyRecord>,
    spoilerFree: typeof spoilerFree === "boolean" ? spoilerFree : null,
    liveAlertMail: liveAlertMail === true,
    identity: profile.identity,
    identityItem: profile.identityItem,
    role: profile.role,
  };
}

/** clubList entries are already '{type}|{id}' on the wire; the first one is the favorite. */
function favoriteClubOf(clubList: readonly string[] | undefined): string | null {
  const first = clubList?.[0];
  if (!first) return null;
  const [type, id] = first.split("|");
  return type && id ? `${type}|${id}` : null;
}

/** Profile fields a form may change; `fullName` is sent as displayName (spec §3). */
export interface UserProfileChanges {
  fullName?: string;
  countryName?: string | null;
  phone?: string | null;
  postalCode?: string | null;
  city?: string | null;
  gender?: Gender;
  identity?: string | null;
  identityItem?: string | null;
  dateOfBirth?: string | null;
  liveAlertMail?: boolean;
}

export function toProfileUpdate(changes: UserProfileChanges): components["schemas"]["ProfileUpdate"] {
  const { fullName, liveAlertMail, ...rest } = changes;
  const update: components["schemas"]["ProfileUpdate"] = { ...rest };
  if (fullName !== undefined) update.displayName = fullName.trim();
  // A setting kept in the profile's options, beside the survey records (merged by the server).
  if (liveAlertMail !== undefined) update.options = { liveAlertMail };
  return update;
}
