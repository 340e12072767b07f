import { useMatches, useParams } from "react-router";
import { useTranslation } from "react-i18next";
import type { FollowedItem } from "@/entities/followed";
import type { RouteHandle } from "@/lib/routeTypes";
import { useDocumentTitle } from "@/ui/useDocumentTitle";
import { useFollowedItems, useFollowListRefresh } from "../api/followList";
import { useCandidates, useIdentityTitle } from "../api/identities";
import { FollowGrid } from "../components/FollowGrid";
import { FollowingNav } from "../components/FollowingNav";
import { SignUpSteps } from "../components/SignUpSteps";
import { EmptyState, ErrorState } from "../components/States";
import { candidateTypeOf, followingPath, followingRouteOf } from "../lib/followingRoute";
import "../components/following.css";

/**
 * /following/{league|category}[/:id][/followed], also under /auth/sign-up/following as a step of
 * sign-up: leagues (or a league's teams), categories (or a category's leagues) to follow, or only
 * the followed ones.
 */
export default function FollowingPage() {
  const { t } = useTranslation("following");
  const params = useParams();
  const name = (useMatches().at(-1)?.handle as RouteHandle | undefined)?.name ?? "";
  const route = followingRouteOf(name, params);
  const type = candidateTypeOf(route);
  const candidates = useCandidates({ mediaType: type, parentId: route.parentId });
  const parent = useIdentityTitle(route.parentId);
  const followed = useFollowedItems();
  useFollowListRefresh();

  const heading = route.parentId
    ? (parent.data?.title ?? t("state.loading"))
    : t(route.kind === "league" ? "title.leagues" : "title.categories");
  const title = route.followedOnly ? t("title.followedIn", { name: heading }) : heading;
  useDocumentTitle(title);

  const inScope = (item: FollowedItem) => {
    if (item.type !== type) return false;
    if (!route.parentId) return true;
    // Followed items know their categories; a league's teams only from the list itself.
    return item.identitiesId.includes(route.parentId) || !!candidates.data?.some((c) => c.id === item.id);
  };
  const items = route.followedOnly
    ? candidates.data
      ? followed.filter(inScope)
      : route.parentId
        ? undefined
        : followed.filter(inScope)
    : candidates.data;
  // Leagues lead to their teams, categories to their leagues; teams lead nowhere here.
  const linkOf = (item: FollowedItem) =>
    item.type === "team" || (route.kind === "category" && route.parentId) ? undefined : followingPath(route, item.id);

  return (
    <section className="page following-page" aria-labelledby="following-title">
      <h1 id="following-title" className="page__title" dir="auto">
        {title}
      </h1>
      {route.signUp && <p className="following-page__intro">{t("signUp.followingIntro")}</p>}
      <FollowingNav route={route} />
      {candidates.isError && !route.followedOnly ? (
        <ErrorState error={candidates.error} onRetry={() => void candidates.refetch()} />
      ) : items && items.length === 0 ? (
        <EmptyState>{route.followedOnly ? t("state.noneFollowed") : t("state.nothingToFollow")}</EmptyState>
      ) : (
        <FollowGrid items={items} linkOf={linkOf} label={title} />
      )}
      {route.signUp && <SignUpSteps />}
    </section>
  );
}
