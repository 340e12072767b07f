import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AuthCard } from "./AuthCard";
import { FormAlert } from "@/ui/form/FormAlert";
import { LocaleLink } from "./LocaleLink";
import { useSignInErrorText } from "../signIn/useSignInErrorText";

/**
 * After a sign-up: "check your mail". It reads the same whether or not the address had an account
 * (the server's answer is the same too). "Send the link again" signs up again with the same
 * details: a new link carries the password typed here (the server binds each link to its sign-up).
 */
export function CheckYourMail({ email, resend }: { email: string; resend: () => Promise<void> }) {
  const { t } = useTranslation("auth");
  const errorText = useSignInErrorText();
  const [state, setState] = useState<{ pending: boolean; sent: boolean; failure?: string }>({
    pending: false,
    sent: false,
  });

  const again = async () => {
    setState({ pending: true, sent: false });
    try {
      await resend();
      setState({ pending: false, sent: true });
    } catch (error) {
      setState({ pending: false, sent: false, failure: errorText(error) });
    }
  };

  return (
    <AuthCard
      title={t("signUp.sentTitle")}
      footer={<LocaleLink to="/auth/login/">{t("common.backToSignIn")}</LocaleLink>}
    >
      <FormAlert tone="success">{t("signUp.sent", { email })}</FormAlert>
      {state.sent && <FormAlert tone="info">{t("signUp.resent")}</FormAlert>}
      {state.failure && <FormAlert tone="danger">{state.failure}</FormAlert>}
      <button type="button" className="btn btn--ghost auth-secondary" disabled={state.pending} onClick={again}>
        {t("signUp.resend")}
      </button>
    </AuthCard>
  );
}
