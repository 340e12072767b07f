import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useErrorText } from "@/api/errors";
import "./States.css";

/** A failed load: the translated reason and a way to try again. */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation("catalog");
  const errorText = useErrorText();
  return (
    <div className="catalog-state catalog-state--error" role="alert">
      <p className="catalog-state__text">{errorText(error)}</p>
      <button type="button" className="btn" onClick={onRetry}>
        {t("retry")}
      </button>
    </div>
  );
}

/** Nothing to show (yet): a sentence and, optionally, where to go instead. */
export function EmptyState({ children, action }: { children: ReactNode; action?: ReactNode }) {
  return (
    <div className="catalog-state" role="status">
      <p className="catalog-state__text">{children}</p>
      {action}
    </div>
  );
}

/** Announces loading to screen readers; the skeletons beside it are decorative. */
export function LoadingNote() {
  const { t } = useTranslation("catalog");
  return (
    <span className="visually-hidden" role="status">
      {t("loading")}
    </span>
  );
}
