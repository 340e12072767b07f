import { Suspense, useState } from "react";
import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { preloadable } from "@/lib/preloadable";
import { useIsAuthenticated } from "@/session/store";
import { useLocalePath } from "@/i18n/useLocalePath";

/**
 * The signed-in menu is not part of the first load: start-up fetches it with the first page when
 * a session is stored (main.tsx), so a signed-in viewer's first render has it all the same.
 */
export const signedInMenuCode = preloadable(() => import("./SignedInMenu").then((module) => module.SignedInMenu));

/** Signed out: Sign in and Sign up. Signed in: the viewer's name opening Account and Log out. */
export function UserMenu() {
  const { t } = useTranslation("common");
  const localePath = useLocalePath();
  const signedIn = useIsAuthenticated();
  const [SignedInMenu] = useState(signedInMenuCode.current);

  if (!signedIn) {
    return (
      <div className="user-menu user-menu--signed-out">
        <Link className="btn btn--ghost user-menu__sign-in" to={localePath("/auth/login")}>
          {t("user.sign_in")}
        </Link>
        <Link className="btn btn--primary user-menu__sign-up" to={localePath("/auth/sign-up")}>
          {t("user.sign_up")}
        </Link>
      </div>
    );
  }
  return (
    <Suspense fallback={<div className="user-menu" />}>
      <SignedInMenu />
    </Suspense>
  );
}
