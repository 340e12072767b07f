import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useErrorText } from "@/api/errors";

/** A failed load: the translated reason and a way to try again. */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation("following");
  const errorText = useErrorText();
  return (
    <div className="following-state following-state--error" role="alert">
      <p>{errorText(error)}</p>
      <button type="button" className="btn" onClick={onRetry}>
        {t("state.retry")}
      </button>
    </div>
  );
}

/** Nothing to show: a sentence and, optionally, where to go instead. */
export function EmptyState({ children, action }: { children: ReactNode; action?: ReactNode }) {
  return (
    <div className="following-state" role="status">
      <p>{children}</p>
      {action}
    </div>
  );
}
