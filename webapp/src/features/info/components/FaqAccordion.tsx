import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { useAppConfig } from "@/lib/config";
import { useDocumentTitle } from "@/ui/useDocumentTitle";
import { ChevronDownIcon } from "@/ui/icons";
import { FAQ_GROUPS, type FaqGroup } from "../documents";
import { Paragraphs } from "./Paragraphs";
import "./Info.css";

/** The FAQ page: questions grouped by topic, each a disclosure button (WAI-ARIA accordion). */
export function FaqAccordion() {
  const { t } = useTranslation("info");
  const name = useAppConfig().name_short;
  const title = t("faq.title");
  useDocumentTitle(title);

  return (
    <article className="page info-page" aria-labelledby="info-title">
      <header className="info-page__header">
        <h1 id="info-title" className="page__title">
          {title}
        </h1>
        <Paragraphs className="info-page__intro" text={t("faq.intro", { name })} />
      </header>
      {(Object.keys(FAQ_GROUPS) as FaqGroup[]).map((group) => (
        <section key={group} className="faq-group" aria-labelledby={`faq-${group}`}>
          <h2 id={`faq-${group}`} className="info-page__heading">
            {t(`faq.groups.${group}.heading`)}
          </h2>
          {FAQ_GROUPS[group].map((question) => (
            <FaqItem
              key={question}
              question={t(`faq.groups.${group}.questions.${question}.q`, { name })}
              answer={t(`faq.groups.${group}.questions.${question}.a`, { name })}
            />
          ))}
        </section>
      ))}
    </article>
  );
}

function FaqItem({ question, answer }: { question: string; answer: string }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className="faq-item" data-open={open}>
      <h3 className="faq-item__question">
        <button
          type="button"
          id={`${id}-button`}
          className="faq-item__button"
          aria-expanded={open}
          aria-controls={`${id}-panel`}
          onClick={() => setOpen((value) => !value)}
        >
          <span>{question}</span>
          <ChevronDownIcon />
        </button>
      </h3>
      <div
        id={`${id}-panel`}
        role="region"
        aria-labelledby={`${id}-button`}
        className="faq-item__answer"
        hidden={!open}
      >
        <Paragraphs text={answer} />
      </div>
    </div>
  );
}
