import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import type { NotFoundError } from "@/lib/errors";
import { useLocalePath } from "@/i18n/useLocalePath";
import { useDocumentTitle } from "./useDocumentTitle";
import "./StatusScreen.css";

/**
 * The 404 screen of spec §2: title and text by context (errors.{context}_not_found,
 * errors.could_not_find_{context}), the optional danger message, the requested path of an
 * unmatched route (in the viewer's language; the error's English message stays for logs) and
 * a way back to the homepage.
 */
export function NotFoundScreen({ error }: { error: NotFoundError }) {
  const { t } = useTranslation(["errors", "common"]);
  const localePath = useLocalePath();
  const title = t(`errors:${error.context}_not_found`);
  useDocumentTitle(title);

  return (
    <section className="status-screen" aria-labelledby="status-screen-title">
      <div className="status-screen__box">
        <p className="status-screen__code" aria-hidden="true">
          404
        </p>
        <h1 id="status-screen-title" className="status-screen__title">
          {title}
        </h1>
        <p className="status-screen__text">{t(`errors:could_not_find_${error.context}`)}</p>
        {error.danger && (
          <p className="status-screen__danger" role="alert">
            {error.danger}
          </p>
        )}
        {error.path !== undefined && (
          <p className="status-screen__technical">{t("common:page_not_found_path", { path: error.path })}</p>
        )}
        <div className="status-screen__actions">
          <Link className="btn btn--primary" to={localePath("/")}>
            {t("common:go_home")}
          </Link>
        </div>
      </div>
    </section>
  );
}
