import { useTranslation } from "react-i18next";

/** Something multiview asked for did not come: `message`, and a retry. */
export function FailedNote({
  message,
  onRetry,
  className,
}: {
  message: string;
  onRetry: () => void;
  className: string;
}) {
  const { t } = useTranslation("watching");
  return (
    <div className={className} role="alert">
      <p>{message}</p>
      <button type="button" className="btn" onClick={onRetry}>
        {t("multiview.retry")}
      </button>
    </div>
  );
}
