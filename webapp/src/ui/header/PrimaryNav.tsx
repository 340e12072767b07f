import { NavLink } from "react-router";
import { useTranslation } from "react-i18next";
import { useLocalePath } from "@/i18n/useLocalePath";

/** The main sections of the catalogue; NavLink marks the current one with aria-current="page". */
const PRIMARY_NAV = [
  { path: "/", key: "nav.home", end: true },
  { path: "/live", key: "nav.live", end: false },
  { path: "/upcoming", key: "nav.upcoming", end: false },
  { path: "/archive", key: "nav.archive", end: false },
  { path: "/highlight", key: "nav.highlights", end: false },
  { path: "/latest", key: "nav.latest", end: false },
] as const;

export function PrimaryNav() {
  const { t } = useTranslation("common");
  const localePath = useLocalePath();
  return (
    <nav className="primary-nav" aria-label={t("nav.label")}>
      <ul className="primary-nav__list">
        {PRIMARY_NAV.map((item) => (
          <li key={item.path}>
            <NavLink className="primary-nav__link" to={localePath(item.path)} end={item.end}>
              {t(item.key)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
