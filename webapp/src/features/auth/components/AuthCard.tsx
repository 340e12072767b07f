import type { ReactNode } from "react";
import { useDocumentTitle } from "@/ui/useDocumentTitle";
import "../auth.css";

/** The frame of every auth page: a titled card, centred by the auth layout. */
export function AuthCard({
  title,
  intro,
  children,
  footer,
}: {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  useDocumentTitle(title);
  // Not a named region: the page's <main> and this <h1> already say what it is.
  return (
    <section className="auth-card">
      <h1 className="auth-card__title">{title}</h1>
      {intro && <p className="auth-card__intro">{intro}</p>}
      {children}
      {footer && <div className="auth-card__footer">{footer}</div>}
    </section>
  );
}
