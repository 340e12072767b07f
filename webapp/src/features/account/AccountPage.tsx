import { Link, useMatches, useNavigate } from "react-router";
import { useTranslation } from "react-i18next";
import type { RouteHandle } from "@/lib/routeTypes";
import type { UserProfile } from "@/entities/user";
import { useLocale, useLocalePath } from "@/i18n/useLocalePath";
import { logout } from "@/session/auth";
import { useCurrentUser } from "@/session/store";
import { useDocumentTitle } from "@/ui/useDocumentTitle";
import { ACCOUNT_SECTIONS, accountSectionOf, type AccountSection } from "./sections";
import "./AccountPage.css";

/** /account and its children: the viewer's profile summary, the section menu and Log out. */
export default function AccountPage() {
  const { t } = useTranslation("common");
  const localePath = useLocalePath();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const handle = useMatches().at(-1)?.handle as RouteHandle | undefined;
  const section = accountSectionOf(handle?.name);
  useDocumentTitle(t("account.title"));

  if (!user) {
    return (
      <section className="account-page">
        <h1 className="page__title">{t("account.title")}</h1>
        <p>{t("account.signed_out")}</p>
        <Link className="btn btn--primary" to={localePath("/auth/login")}>
          {t("user.sign_in")}
        </Link>
      </section>
    );
  }

  const signOut = async () => {
    await logout();
    navigate(localePath("/"));
  };

  return (
    <section className="account-page" aria-labelledby="account-title">
      <ProfileSummary user={user} />
      <nav className="account-page__sections" aria-label={t("account.sections_label")}>
        <ul>
          {ACCOUNT_SECTIONS.map((item) => (
            <li key={item}>
              <Link
                className="account-page__tab"
                to={localePath(`/account/${item}`)}
                aria-current={item === section ? "page" : undefined}
              >
                {t(`account.sections.${item}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <section className="account-page__panel" aria-labelledby="account-section-title">
        <h2 id="account-section-title">{t(`account.sections.${section}`)}</h2>
        <SectionContent section={section} user={user} />
      </section>
      <button type="button" className="btn account-page__logout" onClick={signOut}>
        {t("user.log_out")}
      </button>
    </section>
  );
}

function ProfileSummary({ user }: { user: UserProfile }) {
  const { t } = useTranslation("common");
  const locale = useLocale();
  const since = formatLocalDay(user.added, locale);
  return (
    <header className="account-page__summary">
      <span className="account-page__avatar" aria-hidden="true">
        {(user.fullName || user.email || "?").charAt(0).toLocaleUpperCase(locale)}
      </span>
      <div>
        <h1 id="account-title" className="account-page__name">
          {user.fullName || user.email}
        </h1>
        {user.email && <p className="account-page__email">{user.email}</p>}
        <p className="account-page__since">{t("account.member_since", { date: since })}</p>
      </div>
    </header>
  );
}

/** General shows the profile's details; the other sections arrive with later releases. */
function SectionContent({ section, user }: { section: AccountSection; user: UserProfile }) {
  const { t } = useTranslation("common");
  const locale = useLocale();
  if (section !== "general") return <p className="account-page__later">{t("account.section_later")}</p>;
  const details = [
    ["full_name", user.fullName],
    ["email", user.email],
    ["phone", user.phone],
    ["city", user.city],
    ["postal_code", user.postalCode],
    ["country", user.countryName],
    ["date_of_birth", user.dateOfBirth && formatCalendarDate(user.dateOfBirth, locale)],
  ] as const;
  return (
    <dl className="account-page__details">
      {details.map(([key, value]) => (
        <div key={key} className="account-page__detail">
          <dt>{t(`account.fields.${key}`)}</dt>
          <dd>{value || t("account.not_set")}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A calendar day ("1990-05-01"): formatted in UTC, where it was parsed, so it stays the 1st everywhere. */
function formatCalendarDate(isoDate: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(new Date(isoDate));
}

/** The day an instant fell on for the viewer, in their own time zone. */
function formatLocalDay(isoInstant: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: "long" }).format(new Date(isoInstant));
}
