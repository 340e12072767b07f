import { NavLink } from "react-router";
import { useTranslation } from "react-i18next";
import { useLocalePath } from "@/i18n/useLocalePath";
import { useIsAuthenticated } from "@/session/store";

/** The signed-in viewer's own pages (spec §2, all login required), in the order both menus list them. */
export const MY_STUFF = [
  { path: "/selected/videos", key: "my_stuff.watchlist" },
  { path: "/selected/clips", key: "my_stuff.clips" },
  { path: "/following/league", key: "my_stuff.following" },
  { path: "/recommendation", key: "my_stuff.recommendations" },
  { path: "/club", key: "my_stuff.club" },
] as const;

/**
 * "My stuff" in the narrow screens' navigation panel, under the main sections (wide screens
 * have it in the user menu). NavLink marks the page being viewed; /following/league stays
 * current on its sub-pages.
 */
export function MyStuffNav() {
  const { t } = useTranslation("common");
  const localePath = useLocalePath();
  if (!useIsAuthenticated()) return null;
  return (
    <nav className="primary-nav my-stuff-nav" aria-label={t("my_stuff.label")}>
      <p className="my-stuff-nav__title" aria-hidden="true">
        {t("my_stuff.label")}
      </p>
      <ul className="primary-nav__list">
        {MY_STUFF.map((item) => (
          <li key={item.path}>
            <NavLink className="primary-nav__link" to={localePath(item.path)}>
              {t(item.key)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
