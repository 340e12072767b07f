import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { isApiError } from "@/api/client";
import { useErrorText } from "@/api/errors";
import { SignInFlowError, type SignInFlowCode } from "../federated/errors";
import { retryAfterSeconds } from "../api/retryAfter";

/** Flow errors worded here; popup_closed and login_failed are in the shared errors namespace. */
const OWN_TEXTS: ReadonlySet<SignInFlowCode> = new Set(["provider_not_supported", "facebook_failed"]);

/**
 * The text for a failed sign-in step: the provider flow's own errors (popup_closed 'Popup was
 * closed', login_failed 'Login Failed', unsupported provider, Facebook), a rate limit with its
 * wait, else the API error text (spec §8).
 */
export function useSignInErrorText(): (error: unknown, provider?: string) => string {
  const { t } = useTranslation("auth");
  const apiText = useErrorText();
  return useCallback(
    (error: unknown, provider?: string) => {
      if (error instanceof SignInFlowError && OWN_TEXTS.has(error.code))
        return t(`flowErrors.${error.code}`, { provider: error.provider });
      if (provider && isApiError(error, "provider_not_supported"))
        return t("flowErrors.provider_not_supported", { provider });
      const seconds = retryAfterSeconds(error);
      if (seconds) return t("tooManyAttempts", { count: seconds });
      return apiText(error);
    },
    [t, apiText],
  );
}
