import type { ReactNode } from "react";
import { Link, useMatches, useNavigate } from "react-router";
import { useTranslation } from "react-i18next";
import type { RouteHandle } from "@/lib/routeTypes";
import type { UserProfile } from "@/entities/user";
import { useLocale, useLocalePath } from "@/i18n/useLocalePath";
import { logout } from "@/session/auth";
import { useCurrentUser } from "@/session/store";
import { useDocumentTitle } from "@/ui/useDocumentTitle";
import { ACCOUNT_SECTIONS, accountSectionOf } from "@/features/account/sections";
import "./AccountArea.css";

/**
 * The account area around each /account page: the viewer's profile summary, the section menu
 * (the current section marked) and Log out. The page renders its section: a heading and content.
 */
export default function AccountArea({ children }: { children: ReactNode }) {
  const { t } = useTranslation("account");
  const localePath = useLocalePath();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const handle = [...useMatches()].reverse().find((match) => (match.handle as RouteHandle | undefined)?.name)
    ?.handle as RouteHandle | undefined;
  const section = accountSectionOf(handle?.name);
  useDocumentTitle(`${t(`sections.${section}`)} · ${t("title")}`);

  if (!user) {
    return (
      <section className="account-area">
        <h1 className="page__title">{t("title")}</h1>
        <p>{t("signed_out")}</p>
        <Link className="btn btn--primary account-area__action" to={localePath("/auth/login")}>
          {t("sign_in")}
        </Link>
      </section>
    );
  }

  const signOut = async () => {
    await logout();
    navigate(localePath("/"));
  };

  return (
    <div className="account-area">
      <ProfileSummary user={user} />
      <nav className="account-area__sections" aria-label={t("sections_label")}>
        <ul>
          {ACCOUNT_SECTIONS.map((item) => (
            <li key={item}>
              <Link
                className="account-area__tab"
                to={localePath(`/account/${item}`)}
                aria-current={item === section ? "page" : undefined}
              >
                {t(`sections.${item}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <section className="account-area__panel">{children}</section>
      <button type="button" className="btn account-area__action" onClick={signOut}>
        {t("log_out")}
      </button>
    </div>
  );
}

function ProfileSummary({ user }: { user: UserProfile }) {
  const { t } = useTranslation("account");
  const locale = useLocale();
  const since = new Intl.DateTimeFormat(locale, { dateStyle: "long" }).format(new Date(user.added));
  return (
    <header className="account-area__summary">
      <span className="account-area__avatar" aria-hidden="true">
        {(user.fullName || user.email || "?").charAt(0).toLocaleUpperCase(locale)}
      </span>
      <div>
        <h1 className="account-area__name">{user.fullName || user.email}</h1>
        {user.email && <p className="account-area__email">{user.email}</p>}
        <p className="account-area__since">{t("member_since", { date: since })}</p>
      </div>
    </header>
  );
}
