import { useTranslation } from "react-i18next";
import "./SkipLink.css";

/** The id of each layout's `<main>`, target of the skip link. */
export const MAIN_CONTENT_ID = "main-content";

/** First focusable element of every page: jumps over the header to the content. */
export function SkipLink() {
  const { t } = useTranslation("common");
  return (
    <a className="skip-link" href={`#${MAIN_CONTENT_ID}`}>
      {t("skip_to_content")}
    </a>
  );
}
