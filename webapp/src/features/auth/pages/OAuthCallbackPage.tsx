import { useEffect, useRef, useState } from "react";
import { useParams } from "react-router";
import { useTranslation } from "react-i18next";
import { AuthCard } from "../components/AuthCard";
import { FormAlert } from "@/ui/form/FormAlert";
import { LocaleLink } from "../components/LocaleLink";
import { CALLBACK_MESSAGE_TYPE, callbackParams, sendToOpener } from "../federated/callbackMessage";

const PROVIDERS = new Set(["facebook", "apple", "google", "ifa"]);
/** Lets the message leave before the window goes; a window the script did not open stays open. */
const CLOSE_DELAY_MS = 150;
const STILL_OPEN_AFTER_MS = 1000;

/**
 * /auth/oauth2/callback/:provider, the provider's redirect target inside the sign-in popup: it
 * hands the provider's answer (code, state or error) to the page that opened the popup, on this
 * origin only, and closes. The opener checks the state and finishes the sign-in with the server.
 */
export default function OAuthCallbackPage() {
  const { t } = useTranslation("auth");
  const { provider = "" } = useParams();
  const supported = PROVIDERS.has(provider);
  const [stillOpen, setStillOpen] = useState(false);
  const sent = useRef(false);

  useEffect(() => {
    if (!supported) return;
    if (!sent.current) {
      sent.current = true;
      const params = callbackParams(window.location);
      // The code is single-use and now handed over: keep it out of this window's history.
      window.history.replaceState(window.history.state, "", window.location.pathname);
      sendToOpener({ type: CALLBACK_MESSAGE_TYPE, provider, params });
    }
    const close = setTimeout(() => window.close(), CLOSE_DELAY_MS);
    const orphan = setTimeout(() => setStillOpen(true), STILL_OPEN_AFTER_MS);
    return () => {
      clearTimeout(close);
      clearTimeout(orphan);
    };
  }, [provider, supported]);

  if (!supported) {
    return (
      <AuthCard
        title={t("callback.title")}
        footer={<LocaleLink to="/auth/login/">{t("common.backToSignIn")}</LocaleLink>}
      >
        <FormAlert tone="danger">{t("flowErrors.provider_not_supported", { provider })}</FormAlert>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title={t("callback.title")}
      footer={stillOpen ? <LocaleLink to="/auth/login/">{t("common.backToSignIn")}</LocaleLink> : undefined}
    >
      <FormAlert tone="info">{stillOpen ? t("callback.stillOpen") : t("callback.finishing")}</FormAlert>
    </AuthCard>
  );
}
