import { useEffect, useEffectEvent, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocale } from "@/i18n/useLocalePath";
import type { FederatedProvider, ProviderEntry } from "../api/types";
import { SignInFlowError } from "../federated/errors";
import { renderGoogleButton } from "../federated/google";
import { PROVIDER_NAMES, preloadProviderSdk } from "../federated/signInWithProvider";

interface ProviderButtonsProps {
  providers: ProviderEntry[];
  /** The provider whose sign-in is running, if any (every button waits meanwhile). */
  pending: FederatedProvider | null;
  onSignIn: (entry: ProviderEntry) => void;
  onGoogleIdToken: (idToken: string | undefined) => void;
  onError: (error: unknown, provider: FederatedProvider) => void;
}

/** One button per offered provider; nothing at all when none is offered. */
export function ProviderButtons({ providers, pending, onSignIn, onGoogleIdToken, onError }: ProviderButtonsProps) {
  const { t } = useTranslation("auth");
  const headingId = useId();

  useEffect(() => {
    // SDKs load ahead of the click: a popup opened after a slow download would be blocked.
    for (const entry of providers) preloadProviderSdk(entry).catch(() => undefined);
  }, [providers]);

  if (providers.length === 0) return null;
  return (
    <div className="auth-providers" role="group" aria-labelledby={headingId}>
      <p className="auth-divider" id={headingId}>
        <span>{t("providers.heading")}</span>
      </p>
      <ul className="auth-providers__list">
        {providers.map((entry) => (
          <li key={entry.provider}>
            {entry.provider === "google" ? (
              <GoogleSignInButton entry={entry} onIdToken={onGoogleIdToken} onError={onError} />
            ) : (
              <button
                type="button"
                className={`btn auth-provider auth-provider--${entry.provider}`}
                onClick={() => onSignIn(entry)}
                disabled={pending !== null}
                aria-busy={pending === entry.provider || undefined}
              >
                {pending === entry.provider && <span className="form-spinner" aria-hidden="true" />}
                {t("providers.continueWith", { provider: PROVIDER_NAMES[entry.provider] })}
              </button>
            )}
          </li>
        ))}
      </ul>
      {pending && pending !== "google" && (
        <p className="auth-providers__status" role="status">
          {t("providers.finishInPopup", { provider: PROVIDER_NAMES[pending] })}
        </p>
      )}
    </div>
  );
}

/** Google draws its own button (Google Identity Services); ours stands in until it is there. */
function GoogleSignInButton({
  entry,
  onIdToken,
  onError,
}: {
  entry: ProviderEntry;
  onIdToken: (idToken: string | undefined) => void;
  onError: (error: unknown, provider: FederatedProvider) => void;
}) {
  const { t } = useTranslation("auth");
  const locale = useLocale();
  const container = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");
  // Google calls back long after the effect ran: with the latest handler, without redrawing its button.
  const handleIdToken = useEffectEvent((idToken: string | undefined) => onIdToken(idToken));

  useEffect(() => {
    let active = true;
    if (!container.current) return;
    renderGoogleButton(container.current, {
      clientId: entry.client_id,
      locale,
      onIdToken: (idToken) => handleIdToken(idToken),
    }).then(
      () => active && setState("ready"),
      () => active && setState("failed"),
    );
    return () => {
      active = false;
    };
  }, [entry.client_id, locale]);

  return (
    <>
      <div ref={container} className="auth-provider__google" hidden={state !== "ready"} />
      {state !== "ready" && (
        <button
          type="button"
          className="btn auth-provider auth-provider--google"
          disabled={state === "loading"}
          onClick={() =>
            onError(new SignInFlowError("login_failed", "google", "Google Identity Services did not load"), "google")
          }
        >
          {t("providers.continueWith", { provider: PROVIDER_NAMES.google })}
        </button>
      )}
    </>
  );
}
