import type { ReactNode } from "react";
import { useDocumentTitle } from "@/ui/useDocumentTitle";
import "../commerce.css";

/**
 * The content of one of the account area's sections (the account layout draws the rest): an h2
 * title and the section's own content.
 */
export function AccountSection({ title, children }: { title: string; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <section className="commerce-section" aria-labelledby="commerce-section-title">
      <h2 id="commerce-section-title">{title}</h2>
      {children}
    </section>
  );
}

/** A page of its own (payment pages, the sign-up flow's): an h1 title and its content. */
export function CommercePage({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <section className="commerce-page">
      <h1 className="commerce-page__title">{title}</h1>
      {intro && <p className="commerce-page__intro">{intro}</p>}
      {children}
    </section>
  );
}

/** Loading and failure of a page's data, in one place. */
export function Loading({ label }: { label: string }) {
  return (
    <p className="commerce-loading" aria-busy="true">
      {label}
    </p>
  );
}
