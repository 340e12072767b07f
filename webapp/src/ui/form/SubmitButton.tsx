import "./form.css";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** The form's submit button: disabled with a spinner while the call is pending. */
export function SubmitButton({ pending, children }: { pending: boolean; children: ReactNode }) {
  const { t } = useTranslation("common");
  return (
    <button type="submit" className="btn btn--primary auth-submit" disabled={pending} aria-busy={pending || undefined}>
      {pending && <span className="form-spinner" aria-hidden="true" />}
      <span>{children}</span>
      {pending && <span className="visually-hidden">{t("form.pleaseWait")}</span>}
    </button>
  );
}
