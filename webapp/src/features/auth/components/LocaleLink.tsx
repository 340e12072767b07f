import type { ReactNode } from "react";
import { Link } from "react-router";
import { useLocalePath } from "@/i18n/useLocalePath";

/** A link to an app path in the current locale ("/auth/sign-up/" → "/de/auth/sign-up/"). */
export function LocaleLink({ to, className, children }: { to: string; className?: string; children?: ReactNode }) {
  const localePath = useLocalePath();
  return (
    <Link to={localePath(to)} className={className}>
      {children}
    </Link>
  );
}
