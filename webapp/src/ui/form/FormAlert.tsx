import "./form.css";
import type { ReactNode } from "react";

/** A message about the whole form or page; errors are announced as they appear. */
export function FormAlert({ tone, children }: { tone: "danger" | "info" | "success"; children: ReactNode }) {
  return (
    <div className={`form-alert form-alert--${tone}`} role={tone === "danger" ? "alert" : "status"}>
      {children}
    </div>
  );
}
