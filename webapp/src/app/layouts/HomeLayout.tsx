import type { ReactNode } from "react";
import { Header } from "@/ui/header/Header";
import { MAIN_CONTENT_ID } from "@/ui/SkipLink";
import { useTheme } from "@/ui/theme";
import "./layouts.css";

/** The homepage: header and full-bleed content (hero rails run edge to edge), no footer. */
export function HomeLayout({ children }: { children: ReactNode }) {
  useTheme();
  return (
    <div className="layout layout--home">
      <Header />
      <main id={MAIN_CONTENT_ID} className="layout__main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}

export default HomeLayout;
