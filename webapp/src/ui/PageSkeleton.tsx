import { useTranslation } from "react-i18next";
import "./PageSkeleton.css";

/** Placeholder while a page's code or data loads: the shape of a title and a rail of cards. */
export function PageSkeleton() {
  const { t } = useTranslation("common");
  return (
    <div className="page page-skeleton" role="status" aria-live="polite">
      <span className="visually-hidden">{t("loading")}</span>
      <div className="page-skeleton__title" aria-hidden="true" />
      <div className="page-skeleton__rail" aria-hidden="true">
        {Array.from({ length: 4 }, (_, index) => (
          <div key={index} className="page-skeleton__card" />
        ))}
      </div>
    </div>
  );
}
