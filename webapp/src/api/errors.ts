import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import type { TFunction } from "i18next";
import { ApiError } from "./apiError";

const MISSING = "\u0000missing";
const CODE = /^[a-z][a-z0-9_]*$/;

/** The code and message of anything thrown: ApiError, or another error carrying a `code`. */
function describe(error: unknown): { code?: string; message?: string; reason?: string } {
  if (error instanceof ApiError) return { code: error.code, message: error.serverMessage, reason: error.reason };
  if (error && typeof error === "object") {
    const { code, messageErrorCode, message } = error as Record<string, unknown>;
    const named = typeof code === "string" ? code : typeof messageErrorCode === "string" ? messageErrorCode : undefined;
    // A plain Error's message is for developers; only coded errors carry a text meant for people.
    if (named) return { code: named, message: typeof message === "string" ? message : undefined };
  }
  return {};
}

/**
 * The text a viewer sees for a failure (spec §8): the translation errors.{code}_{reason} when the
 * error says why (weak_password_common), else errors.{code}, else the server's message, else "An
 * error occurred".
 */
export function errorText(error: unknown, t: TFunction): string {
  const { code, message, reason } = describe(error);
  const keys = reason && CODE.test(reason) ? [`${code}_${reason}`, code] : [code];
  for (const key of keys) {
    if (!key || !CODE.test(key)) continue;
    const translated = t(`errors:${key}`, { defaultValue: MISSING });
    if (translated !== MISSING) return translated;
  }
  return message || t("errors:an_error_occurred");
}

export function useErrorText(): (error: unknown) => string {
  const { t } = useTranslation("errors");
  return useCallback((error: unknown) => errorText(error, t), [t]);
}
