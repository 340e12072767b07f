import type { AppConfig } from "@/lib/config";
import type { Middleware } from "@/lib/routeTypes";

/**
 * What runs before every page (spec §2), in the spec's order: the favourite-club guard, the
 * skip-login guard for the federated sign-on, the redirect-rule lookup; then the route's named
 * middleware (`auth`, `disable-team-page`). Pure, so the order and each rule are unit-tested.
 */
export type GuardOutcome =
  | { kind: "continue" }
  | { kind: "redirect"; to: string } // an app path (gets the locale prefix)
  | { kind: "external"; to: string } // an absolute URL: a full-page navigation
  | { kind: "not-found" };

export interface GuardInput {
  /** The path without locale prefix, e.g. "/auth/login/". */
  path: string;
  /** The path with query, without locale prefix, to come back to after signing in. */
  returnTo: string;
  config: Pick<AppConfig, "options" | "redirects">;
  isAuthenticated: boolean;
  favoriteClubId: string | null | undefined;
  middleware: readonly Middleware[];
}

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:\/\//i;

/** "/auth/login/" and "/auth/login" are the same page. */
export function normalizePath(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  return trimmed === "" ? "/" : trimmed;
}

export function favoriteClubGuard(input: GuardInput): GuardOutcome {
  const { config, isAuthenticated, favoriteClubId, path, returnTo } = input;
  if (config.options.favorite_club && isAuthenticated && !favoriteClubId && normalizePath(path) !== "/club") {
    // The club page goes on to where the viewer was headed once a club is chosen.
    const back = normalizePath(returnTo) === "/" ? "" : `?redirect=${encodeURIComponent(returnTo)}`;
    return { kind: "redirect", to: `/club/${back}` };
  }
  return { kind: "continue" };
}

export function skipLoginGuard(input: GuardInput): GuardOutcome {
  // options.skip_login is only true when the server also offers the federated sign-on.
  if (input.config.options.skip_login && normalizePath(input.path) === "/auth/login")
    return { kind: "redirect", to: "/" };
  return { kind: "continue" };
}

export function redirectRuleGuard(input: GuardInput): GuardOutcome {
  const path = normalizePath(input.path);
  const rule = input.config.redirects.find((candidate) => normalizePath(candidate.path) === path);
  if (!rule || normalizePath(rule.to) === path) return { kind: "continue" };
  return ABSOLUTE.test(rule.to) ? { kind: "external", to: rule.to } : { kind: "redirect", to: rule.to };
}

export function authMiddleware(input: GuardInput): GuardOutcome {
  if (input.isAuthenticated) return { kind: "continue" };
  return { kind: "redirect", to: `/auth/login/?redirect=${encodeURIComponent(input.returnTo)}` };
}

export function disableTeamPageMiddleware(input: GuardInput): GuardOutcome {
  return input.config.options.disable_team_page ? { kind: "not-found" } : { kind: "continue" };
}

const GUARDS = [favoriteClubGuard, skipLoginGuard, redirectRuleGuard];
const MIDDLEWARE: Record<Middleware, (input: GuardInput) => GuardOutcome> = {
  auth: authMiddleware,
  "disable-team-page": disableTeamPageMiddleware,
};

export function runGuards(input: GuardInput): GuardOutcome {
  for (const guard of [...GUARDS, ...input.middleware.map((name) => MIDDLEWARE[name])]) {
    const outcome = guard(input);
    if (outcome.kind !== "continue") return outcome;
  }
  return { kind: "continue" };
}

/**
 * `?storeUrl=` on the app root sends the browser to an app store, but only to an https URL on an
 * allow-listed host: anything else (another host, "undefined", javascript:) is ignored, so the
 * root cannot be used as an open redirect.
 */
export function allowedStoreUrl(raw: string | null, allowedHosts: readonly string[]): string | null {
  if (!raw || raw === "undefined") return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" || url.username || url.password) return null;
  const host = url.hostname.toLowerCase();
  return allowedHosts.some((allowed) => allowed.toLowerCase() === host) ? url.href : null;
}
