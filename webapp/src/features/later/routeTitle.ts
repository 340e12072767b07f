/**
 * The title key (common:later.titles.*) of a route whose page comes later. The sign-up flow's
 * following pages share the titles of /following, and a league or category id does not
 * change the title.
 */
export function laterTitleKey(routeName: string): string {
  const name = routeName.replace(/^auth-sign-up-following-/, "following-").replace(/-(leagueId|categoryId)(?=-|$)/, "");
  return `later.titles.${name}`;
}
