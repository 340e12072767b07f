import { Link, useNavigate, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { useLocale, useLocalePath } from "@/i18n/useLocalePath";
import { useDocumentTitle } from "@/ui/useDocumentTitle";
import { useFollowedItems } from "../api/followList";
import { useCandidates } from "../api/identities";
import { FollowGrid } from "../components/FollowGrid";
import { ErrorState } from "../components/States";
import { continueTarget } from "../lib/returnPath";
import "../components/following.css";

/**
 * /auth/sign-up/personalization: the step after registering (and after a first federated
 * sign-in): follow leagues here, or go through categories and teams; then Done.
 */
export default function PersonalizationPage() {
  const { t } = useTranslation("following");
  const localePath = useLocalePath();
  const locale = useLocale();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const redirect = params.get("redirect");
  const query = redirect ? `?redirect=${encodeURIComponent(redirect)}` : "";
  const leagues = useCandidates({ mediaType: "identity_item" });
  const followed = useFollowedItems();
  useDocumentTitle(t("signUp.title"));

  return (
    <section className="page following-page following-page--signup" aria-labelledby="personalization-title">
      <h1 id="personalization-title" className="page__title">
        {t("signUp.title")}
      </h1>
      <p className="following-page__intro">{t("signUp.intro")}</p>
      <p className="following-page__count" role="status">
        {t("signUp.count", { count: followed.length })}
      </p>
      <nav className="following-nav" aria-label={t("nav.label")}>
        <div className="following-nav__group">
          <Link className="following-nav__link" to={localePath("/auth/sign-up/following/league/") + query}>
            {t("signUp.byLeague")}
          </Link>
          <Link className="following-nav__link" to={localePath("/auth/sign-up/following/category/") + query}>
            {t("signUp.byCategory")}
          </Link>
        </div>
      </nav>
      {leagues.isError ? (
        <ErrorState error={leagues.error} onRetry={() => void leagues.refetch()} />
      ) : (
        <FollowGrid items={leagues.data} label={t("title.leagues")} />
      )}
      <div className="following-steps">
        <button
          type="button"
          className="btn btn--primary"
          onClick={() => navigate(continueTarget(redirect, locale), { replace: true })}
        >
          {followed.length ? t("signUp.done") : t("signUp.skip")}
        </button>
      </div>
    </section>
  );
}
