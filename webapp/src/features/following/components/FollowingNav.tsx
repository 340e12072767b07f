import { NavLink } from "react-router";
import { useTranslation } from "react-i18next";
import { useLocalePath } from "@/i18n/useLocalePath";
import { followingPath, type FollowingRoute } from "../lib/followingRoute";

/** Leagues / categories, and all / followed, as links (each a page of its own). */
export function FollowingNav({ route }: { route: FollowingRoute }) {
  const { t } = useTranslation("following");
  const localePath = useLocalePath();
  const link = (to: string, label: string, current: boolean) => (
    <NavLink
      className={`following-nav__link${current ? " following-nav__link--current" : ""}`}
      to={localePath(to)}
      aria-current={current ? "page" : undefined}
      end
    >
      {label}
    </NavLink>
  );
  return (
    <nav className="following-nav" aria-label={t("nav.label")}>
      <div className="following-nav__group">
        {link(
          followingPath({ ...route, kind: "league" }),
          t("nav.leagues"),
          route.kind === "league" && !route.parentId,
        )}
        {link(
          followingPath({ ...route, kind: "category" }),
          t("nav.categories"),
          route.kind === "category" && !route.parentId,
        )}
      </div>
      <div className="following-nav__group">
        {link(followingPath(route, route.parentId), t("nav.all"), !route.followedOnly)}
        {link(followingPath(route, route.parentId, true), t("nav.followed"), route.followedOnly)}
      </div>
    </nav>
  );
}
