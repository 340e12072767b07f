import { useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { isApiError } from "@/api/client";
import { verifyEmail } from "../api/verifyEmail";
import { AuthCard } from "../components/AuthCard";
import { FormAlert } from "@/ui/form/FormAlert";
import { LocaleLink } from "../components/LocaleLink";
import { useFinishSignIn } from "../signIn/useFinishSignIn";
import { useSignInErrorText } from "../signIn/useSignInErrorText";

/** VerifyEmailRequest.token bounds: shorter or longer cannot be a token the server issued. */
const TOKEN_MIN = 16;
const TOKEN_MAX = 512;

/**
 * /auth/verify/?token=…: the link from the sign-up mail. Opening it confirms the address and signs
 * in, then continues like any sign-in (a new account goes on to personalization).
 */
export default function VerifyEmailPage() {
  const { t } = useTranslation("auth");
  const errorText = useSignInErrorText();
  const finishSignIn = useFinishSignIn();
  const [params] = useSearchParams();
  const token = params.get("token")?.trim() ?? "";
  const usable = token.length >= TOKEN_MIN && token.length <= TOKEN_MAX;
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false); // the token works once: never send it twice (StrictMode, re-renders)

  useEffect(() => {
    if (!usable || started.current) return;
    started.current = true;
    verifyEmail(token)
      .then((answer) => finishSignIn(answer))
      .catch((error: unknown) =>
        setFailure(isApiError(error, "invalid_verification_token") ? t("verify.invalidToken") : errorText(error)),
      );
  }, [usable, token, finishSignIn, errorText, t]);

  const signIn = <LocaleLink to="/auth/login/">{t("verify.signIn")}</LocaleLink>;
  if (!usable) {
    return (
      <AuthCard title={t("verify.title")} footer={signIn}>
        <FormAlert tone="danger">{t("verify.missingToken")}</FormAlert>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t("verify.title")} footer={failure ? signIn : undefined}>
      {failure ? <FormAlert tone="danger">{failure}</FormAlert> : <p role="status">{t("verify.working")}</p>}
    </AuthCard>
  );
}
