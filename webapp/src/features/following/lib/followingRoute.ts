/** Which following page a route is, read from its handle's name (src/app/routes.tsx followingRoutes). */
export interface FollowingRoute {
  /** Under /auth/sign-up/following: a step of sign-up, with Next and Done. */
  signUp: boolean;
  /** The list the page starts from: leagues or categories. */
  kind: "league" | "category";
  /** The league (its teams) or category (its leagues) the page is about, if any. */
  parentId: string | undefined;
  /** Only what the viewer follows. */
  followedOnly: boolean;
}

export function followingRouteOf(name: string, params: { leagueId?: string; mainId?: string }): FollowingRoute {
  const kind = name.includes("-category") ? "category" : "league";
  return {
    signUp: name.startsWith("auth-sign-up-"),
    kind,
    parentId: kind === "league" ? params.leagueId : params.mainId,
    followedOnly: name.endsWith("-followed"),
  };
}

/** The app path of a following page, inside or outside the sign-up flow. */
export function followingPath(
  route: Pick<FollowingRoute, "signUp" | "kind">,
  parentId?: string,
  followedOnly = false,
): string {
  const base = route.signUp ? "/auth/sign-up/following" : "/following";
  return `${base}/${route.kind}/${parentId ? `${parentId}/` : ""}${followedOnly ? "followed/" : ""}`;
}

/** What a page lists to follow: the league's teams, the category's leagues, all leagues, all categories. */
export function candidateTypeOf(
  route: Pick<FollowingRoute, "kind" | "parentId">,
): "team" | "identity_item" | "identity" {
  if (route.kind === "league") return route.parentId ? "team" : "identity_item";
  return route.parentId ? "identity_item" : "identity";
}
