import type { ReactNode } from "react";
import { useDocumentTitle } from "../useDocumentTitle";
import "./CatalogPage.css";

/** The frame of every catalogue page: a heading (also the document title), an intro, the content. */
export function CatalogPage({
  title,
  intro,
  toolbar,
  children,
}: {
  title: string;
  intro?: ReactNode;
  toolbar?: ReactNode;
  children: ReactNode;
}) {
  useDocumentTitle(title);
  return (
    <div className="page catalog-page">
      <header className="catalog-page__header">
        <h1 className="page__title">{title}</h1>
        {intro && <p className="catalog-page__intro">{intro}</p>}
      </header>
      {toolbar}
      {children}
    </div>
  );
}
