import { useTranslation } from "react-i18next";
import { useErrorText } from "@/api/errors";
import { useDocumentTitle } from "./useDocumentTitle";
import "./StatusScreen.css";

/** Any route failure that is not a 404: the viewer-facing error text and a way to try again. */
export function ErrorScreen({ error }: { error: unknown }) {
  const { t } = useTranslation(["errors", "common"]);
  const text = useErrorText()(error);
  const title = t("common:error_screen.title");
  useDocumentTitle(title);

  return (
    <section className="status-screen" aria-labelledby="status-screen-title" role="alert">
      <div className="status-screen__box">
        <h1 id="status-screen-title" className="status-screen__title">
          {title}
        </h1>
        <p className="status-screen__text">{text}</p>
        <div className="status-screen__actions">
          <button type="button" className="btn btn--primary" onClick={() => window.location.reload()}>
            {t("common:error_screen.retry")}
          </button>
        </div>
      </div>
    </section>
  );
}
