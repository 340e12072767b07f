import { useTranslation } from "react-i18next";
import { useAppConfig } from "@/lib/config";
import { useDocumentTitle } from "@/ui/useDocumentTitle";
import { INFO_DOCUMENTS, type DocumentType } from "../documents";
import { Paragraphs } from "./Paragraphs";
import "./Info.css";

/** Documents with more sections than this get a table of contents. */
const CONTENTS_FROM = 4;

/** One information document (about, terms, privacy, cookies, contact) in the current language. */
export function InfoDocument({ type }: { type: DocumentType }) {
  const { t, i18n } = useTranslation("info");
  const name = useAppConfig().name_short;
  const { sections, updated } = INFO_DOCUMENTS[type];
  const title = t(`${type}.title`, { name });
  useDocumentTitle(title);
  const anchor = (id: string) => `${type}-${id}`.replace(/_/g, "-");

  return (
    <article className="page info-page" aria-labelledby="info-title">
      <header className="info-page__header">
        <h1 id="info-title" className="page__title">
          {title}
        </h1>
        {updated && (
          <p className="info-page__updated">
            {t("last_updated", {
              date: new Intl.DateTimeFormat(i18n.language, { dateStyle: "long", timeZone: "UTC" }).format(
                new Date(updated),
              ),
            })}
          </p>
        )}
        <Paragraphs className="info-page__intro" text={t(`${type}.intro`, { name })} />
      </header>
      {sections.length >= CONTENTS_FROM && (
        <nav className="info-page__contents" aria-labelledby="info-contents">
          <h2 id="info-contents" className="info-page__contents-title">
            {t("on_this_page")}
          </h2>
          <ul>
            {sections.map((id) => (
              <li key={id}>
                <a href={`#${anchor(id)}`}>{t(`${type}.sections.${id}.heading`, { name })}</a>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {sections.map((id) => (
        <section key={id} className="info-page__section" aria-labelledby={anchor(id)}>
          <h2 id={anchor(id)} className="info-page__heading">
            {t(`${type}.sections.${id}.heading`, { name })}
          </h2>
          <Paragraphs text={t(`${type}.sections.${id}.body`, { name })} />
        </section>
      ))}
    </article>
  );
}
