import type { UserProfile, UserProfileChanges, Gender } from "@/entities/user";

/** Limits of ProfileUpdate in openapi.yaml, checked before anything is sent. */
export const FULL_NAME_MAX = 100;
export const CITY_MAX = 100;
export const COUNTRY_MAX = 100;
export const POSTAL_CODE_MAX = 20;
/** Phone in openapi.yaml. */
export const PHONE_PATTERN = /^\+?[0-9 ()./-]{3,30}$/;
// The server refuses control characters in any text field.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

export interface ProfileFormValues {
  fullName: string;
  phone: string;
  city: string;
  postalCode: string;
  countryName: string;
  gender: "" | NonNullable<Gender>;
  dateOfBirth: string;
  /** The favourite main category's id, "" for none. */
  identity: string;
  /** The favourite sub-category's id (of `identity`), "" for none. */
  identityItem: string;
}

export const GENDERS = ["male", "female", "other"] as const;

export function formValuesOf(user: UserProfile): ProfileFormValues {
  return {
    fullName: user.fullName ?? "",
    phone: user.phone ?? "",
    city: user.city ?? "",
    postalCode: user.postalCode ?? "",
    countryName: user.countryName ?? "",
    gender: user.gender ?? "",
    dateOfBirth: user.dateOfBirth ?? "",
    identity: user.identity ?? "",
    identityItem: user.identityItem ?? "",
  };
}

const blankToNull = (value: string): string | null => value.trim() || null;

/** The fields that differ from the stored profile, as update_profile takes them (blank clears). */
export function profileChanges(values: ProfileFormValues, user: UserProfile): UserProfileChanges {
  const changes: UserProfileChanges = {};
  const before = formValuesOf(user);
  if (values.fullName.trim() !== before.fullName.trim()) changes.fullName = values.fullName.trim();
  if (values.phone.trim() !== before.phone) changes.phone = blankToNull(values.phone);
  if (values.city.trim() !== before.city) changes.city = blankToNull(values.city);
  if (values.postalCode.trim() !== before.postalCode) changes.postalCode = blankToNull(values.postalCode);
  if (values.countryName.trim() !== before.countryName) changes.countryName = blankToNull(values.countryName);
  if (values.gender !== before.gender) changes.gender = values.gender || null;
  if (values.dateOfBirth !== before.dateOfBirth) changes.dateOfBirth = values.dateOfBirth || null;
  if (values.identity !== before.identity) changes.identity = values.identity || null;
  if (values.identityItem !== before.identityItem) changes.identityItem = values.identityItem || null;
  return changes;
}

/** Today as the viewer's calendar sees it ("2026-11-24"): a birthday is a calendar day. */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** Optional text: at most `max` characters, no control characters. */
function textRules(t: Translate, max: number) {
  return {
    validate: (value: string) => {
      if (CONTROL.test(value)) return t("general.validation.invalid_characters");
      return value.trim().length <= max || t("general.validation.too_long", { max });
    },
  };
}

export function profileRules(t: Translate) {
  return {
    fullName: {
      validate: (value: string) => {
        if (!value.trim()) return t("general.validation.full_name_required");
        if (CONTROL.test(value)) return t("general.validation.invalid_characters");
        return value.trim().length <= FULL_NAME_MAX || t("general.validation.too_long", { max: FULL_NAME_MAX });
      },
    },
    phone: {
      validate: (value: string) => !value.trim() || PHONE_PATTERN.test(value.trim()) || t("general.validation.phone"),
    },
    city: textRules(t, CITY_MAX),
    postalCode: textRules(t, POSTAL_CODE_MAX),
    countryName: textRules(t, COUNTRY_MAX),
    dateOfBirth: {
      validate: (value: string) => {
        if (!value) return true;
        if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value)))
          return t("general.validation.date_invalid");
        return value <= localToday() || t("general.validation.date_future");
      },
    },
  };
}

/** Server field names (ProfileUpdate) to the form's. */
export const SERVER_FIELDS: Record<string, keyof ProfileFormValues> = {
  displayName: "fullName",
  phone: "phone",
  city: "city",
  postalCode: "postalCode",
  countryName: "countryName",
  gender: "gender",
  dateOfBirth: "dateOfBirth",
  identity: "identity",
  identityItem: "identityItem",
};
