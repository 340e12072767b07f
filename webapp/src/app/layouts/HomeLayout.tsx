import type { ReactNode } from "react";
import { Footer } from "@/ui/Footer";
import { Header } from "@/ui/header/Header";
import { MAIN_CONTENT_ID } from "@/ui/SkipLink";
import { useTheme } from "@/ui/theme";
import "./layouts.css";

/** The homepage: header, full-bleed content (hero rails run edge to edge) and the footer. */
export function HomeLayout({ children }: { children: ReactNode }) {
  useTheme();
  return (
    <div className="layout layout--home">
      <Header />
      <main id={MAIN_CONTENT_ID} className="layout__main" tabIndex={-1}>
        {children}
      </main>
      <Footer />
    </div>
  );
}

export default HomeLayout;
