import type { ReactNode } from "react";
import { Footer } from "@/ui/Footer";
import { SlimHeader } from "@/ui/header/Header";
import { MAIN_CONTENT_ID } from "@/ui/SkipLink";
import { useTheme } from "@/ui/theme";
import "./layouts.css";

/** Sign-in, sign-up, account and payment: a slim header, centred content and the footer links. */
export function AuthLayout({ children }: { children: ReactNode }) {
  useTheme();
  return (
    <div className="layout layout--auth">
      <SlimHeader />
      <main id={MAIN_CONTENT_ID} className="layout__main layout__main--centred" tabIndex={-1}>
        {children}
      </main>
      <Footer />
    </div>
  );
}

export default AuthLayout;
