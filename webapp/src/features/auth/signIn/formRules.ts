/** Form rules from the contract, checked before anything is sent. E-mail: something@domain.tld, no spaces (the server checks properly). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** NewPassword in openapi.yaml. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
/** RegisterRequest.displayName. */
export const FULL_NAME_MAX = 100;

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The e-mail field of every auth form: required, then shaped like an address. */
export function emailRules(t: Translate) {
  return {
    validate: (value: string) => {
      if (!value.trim()) return t("validation.emailRequired");
      return EMAIL_PATTERN.test(value.trim()) || t("validation.emailInvalid");
    },
  };
}

/** A new password (sign-up, reset): the contract's length limits. */
export function newPasswordRules(t: Translate) {
  return {
    required: t("validation.passwordRequired"),
    minLength: { value: PASSWORD_MIN, message: t("validation.passwordTooShort", { min: PASSWORD_MIN }) },
    maxLength: { value: PASSWORD_MAX, message: t("validation.passwordTooLong", { max: PASSWORD_MAX }) },
  };
}

/** The repeated new password must equal the first. */
export function confirmPasswordRules(t: Translate, password: () => string) {
  return {
    required: t("validation.confirmRequired"),
    validate: (value: string) => value === password() || t("validation.passwordsDiffer"),
  };
}
