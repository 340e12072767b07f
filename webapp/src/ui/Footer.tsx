import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { useAppConfig } from "@/lib/config";
import { useLocalePath } from "@/i18n/useLocalePath";
import "./Footer.css";

const FOOTER_LINKS = [
  { path: "/about", key: "footer.about" },
  { path: "/faq", key: "footer.faq" },
  { path: "/terms", key: "footer.terms" },
  { path: "/privacy", key: "footer.privacy" },
] as const;

/** Links to the information pages and the copyright line. */
export function Footer() {
  const { t } = useTranslation("common");
  const name = useAppConfig().name_short;
  const localePath = useLocalePath();
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <nav aria-label={t("footer.label")}>
          <ul className="site-footer__links">
            {FOOTER_LINKS.map((link) => (
              <li key={link.path}>
                <Link to={localePath(link.path)}>{t(link.key)}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <p className="site-footer__copyright">{t("footer.copyright", { year: new Date().getFullYear(), name })}</p>
      </div>
    </footer>
  );
}
