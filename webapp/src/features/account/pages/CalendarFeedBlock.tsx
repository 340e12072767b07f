import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { useErrorText } from "@/api/errors";
import { notify } from "@/lib/notify";
import { FormAlert } from "@/ui/form/FormAlert";
import {
  googleCalendarUrl,
  useCalendarFeed,
  useCreateCalendarFeed,
  useRevokeCalendarFeed,
  webcalUrl,
} from "../api/calendarFeed";

/**
 * The account's calendar link (issue 31 §4): made here, shown once to be copied or opened in a
 * calendar app, replaced or turned off. Anyone holding it sees what the viewer follows.
 */
export function CalendarFeedBlock() {
  const { t } = useTranslation("account");
  const errorText = useErrorText();
  const headingId = useId();
  const feed = useCalendarFeed();
  const create = useCreateCalendarFeed();
  const revoke = useRevokeCalendarFeed();
  // The address is in the answer that made it, and nowhere else.
  const [made, setMade] = useState<string | null>(null);
  const failure = create.error ?? revoke.error;
  const busy = create.isPending || revoke.isPending;

  const makeLink = () =>
    create.mutate(undefined, {
      onSuccess: (answer) => setMade(answer.url),
    });
  const turnOff = () =>
    revoke.mutate(undefined, {
      onSuccess: () => {
        setMade(null);
        void notify.success(t("calendar.revoked"));
      },
    });
  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      void notify.success(t("calendar.copied"));
    } catch {
      // No clipboard here (an insecure page, a refusal): the address is selectable in its field.
    }
  };

  return (
    <section className="account-preferences" aria-labelledby={headingId}>
      <h3 id={headingId}>{t("calendar.title")}</h3>
      <p className="account-intro">{t("calendar.intro")}</p>
      {failure && <FormAlert tone="danger">{errorText(failure)}</FormAlert>}
      {made ? (
        <div className="calendar-feed">
          <label className="form-field">
            <span className="form-field__label">{t("calendar.url_label")}</span>
            <input className="form-field__input" readOnly value={made} onFocus={(focus) => focus.target.select()} />
          </label>
          <p className="form-field__hint">{t("calendar.shown_once")}</p>
          <div className="account-alert__actions">
            <button type="button" className="btn" onClick={() => void copy(made)}>
              {t("calendar.copy")}
            </button>
            <a className="btn" href={webcalUrl(made)}>
              {t("calendar.apple")}
            </a>
            <a className="btn" href={googleCalendarUrl(made)} target="_blank" rel="noopener noreferrer">
              {t("calendar.google")}
            </a>
          </div>
        </div>
      ) : (
        feed.data?.active && <p>{t("calendar.active")}</p>
      )}
      <div className="account-alert__actions">
        <button type="button" className="btn" disabled={busy || feed.isPending} onClick={makeLink}>
          {feed.data?.active || made ? t("calendar.replace") : t("calendar.create")}
        </button>
        {(feed.data?.active || made) && (
          <button type="button" className="btn account-button--danger" disabled={busy} onClick={turnOff}>
            {t("calendar.revoke")}
          </button>
        )}
      </div>
    </section>
  );
}
