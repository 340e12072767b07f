import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { useLocalePath } from "@/i18n/useLocalePath";
import { useDocumentTitle } from "@/ui/useDocumentTitle";
import { useRecommendations } from "../api/recommendations";
import { EventTile } from "../components/EventTile";
import { EmptyState, ErrorState } from "../components/States";
import "../components/following.css";

/** /recommendation: events of what the viewer follows, on now first, then next, then played. */
export default function RecommendationPage() {
  const { t } = useTranslation("following");
  const localePath = useLocalePath();
  const recommendations = useRecommendations();
  useDocumentTitle(t("recommendation.title"));

  const findMore = (
    <Link className="btn btn--primary" to={localePath("/following/league/")}>
      {t("recommendation.follow")}
    </Link>
  );
  let body;
  if (!recommendations.followsSomething)
    body = <EmptyState action={findMore}>{t("recommendation.noFollows")}</EmptyState>;
  else if (recommendations.isError)
    body = <ErrorState error={recommendations.error} onRetry={() => void recommendations.refetch()} />;
  else if (!recommendations.data) body = <p role="status">{t("state.loading")}</p>;
  else if (!recommendations.data.length) body = <EmptyState action={findMore}>{t("recommendation.empty")}</EmptyState>;
  else
    body = (
      <ul className="event-tiles" aria-label={t("recommendation.title")}>
        {recommendations.data.map((event) => (
          <EventTile key={event.id} event={event} />
        ))}
      </ul>
    );

  return (
    <section className="page following-page" aria-labelledby="recommendation-title">
      <h1 id="recommendation-title" className="page__title">
        {t("recommendation.title")}
      </h1>
      {body}
    </section>
  );
}
