import type { RouteObject } from "react-router";
import { RouteErrorScreen } from "./RouteErrorScreen";
import { guardLoader, unmatchedLoader } from "./guardLoader";
import { queryClient } from "@/lib/queryClient";
import { prefetchEventAnswer } from "@/features/watching/api/prefetchEvent";
import { prefetchHomeRails } from "@/features/catalog/homeRails";
// The module itself, not @/ui/player: the router must not pull the player into the first load.
import { preloadPlayer } from "@/ui/player/load";
import { loadNamespace } from "@/i18n";
import type { Namespace } from "@/i18n/locales";
import type { LayoutName, Middleware, Prefetch, RouteHandle } from "@/lib/routeTypes";

interface PageModule {
  default: React.ComponentType;
}
/**
 * A lazily loaded page and the translations it shows, fetched together: a page that suspended
 * for its messages after rendering would wait out React's 300 ms reveal throttle as well.
 */
// The object form lets the router run the route's loader (guards, prefetches) while this loads.
// A page is a factory, never a shared object: once a lazy property has loaded, React Router sets it
// to undefined in the route's own `lazy` object, so a second route handed the same object (/live and
// /live/:sportType, or a page under "/" and "/:locale") would find no Component and render nothing.
type Page = () => NonNullable<RouteObject["lazy"]>;
const page =
  (load: () => Promise<PageModule>, ...namespaces: Namespace[]): Page =>
  () => ({
    Component: async () => {
      const [module] = await Promise.all([load(), ...namespaces.map(loadNamespace)]);
      return module.default;
    },
  });

const catalog = {
  home: page(() => import("@/features/catalog/pages/HomePage"), "catalog"),
  live: page(() => import("@/features/catalog/pages/LivePage"), "catalog"),
  upcoming: page(() => import("@/features/catalog/pages/UpcomingPage"), "catalog"),
  archive: page(() => import("@/features/catalog/pages/ArchivePage"), "catalog"),
  latest: page(() => import("@/features/catalog/pages/LatestPage"), "catalog"),
  highlight: page(() => import("@/features/catalog/pages/HighlightPage"), "catalog"),
  suggested: page(() => import("@/features/catalog/pages/SuggestedPage"), "catalog"),
  search: page(() => import("@/features/catalog/pages/SearchPage"), "catalog"),
  league: page(() => import("@/features/catalog/pages/LeaguePage"), "catalog"),
  category: page(() => import("@/features/catalog/pages/CategoryPage"), "catalog"),
  subCategory: page(() => import("@/features/catalog/pages/SubCategoryPage"), "catalog"),
  team: page(() => import("@/features/catalog/pages/TeamPage"), "catalog"),
};
const info = {
  about: page(() => import("@/features/info/pages/AboutPage"), "info"),
  faq: page(() => import("@/features/info/pages/FaqPage"), "info"),
  terms: page(() => import("@/features/info/pages/TermsPage"), "info"),
  privacy: page(() => import("@/features/info/pages/PrivacyPage"), "info"),
  info: page(() => import("@/features/info/pages/InfoPage"), "info"),
  openApp: page(() => import("@/features/info/pages/OpenAppPage"), "info"),
};
// The event page, the pages that play like it or show it (a channel, an event's stats, an event found
// by its reference) and multiview; most show the catalogue's texts ("catalog") beside their own.
const watching = {
  // A channel plays like an event: its player's code and texts come with the page.
  channel: page(
    () => {
      preloadPlayer();
      return import("@/features/watching/pages/ChannelPage");
    },
    "catalog",
    "event",
    "errors",
    "player",
  ),
  eventStats: page(() => import("@/features/watching/pages/EventStatsPage"), "catalog", "stats"),
  // The player's code (hls.js, media-chrome) starts loading with the page, not after it.
  event: page(
    () => {
      preloadPlayer();
      return import("@/features/watching/pages/EventPage");
    },
    "catalog",
    "event",
    "stats",
    "errors",
    "player",
  ),
  redirectEvent: page(() => import("@/features/watching/pages/RedirectEventPage"), "catalog"),
  // Multiview with the event page's paywall in its tiles: src/app/pages joins them.
  multiview: page(() => import("./pages/MultiviewRoute"), "watching", "event", "player", "errors"),
};
const auth = {
  login: page(() => import("@/features/auth/pages/LoginPage"), "auth", "errors"),
  loginLimit: page(() => import("@/features/auth/pages/LoginLimitPage"), "auth", "errors"),
  signUp: page(() => import("@/features/auth/pages/SignUpPage"), "auth", "errors"),
  forgot: page(() => import("@/features/auth/pages/ForgotPasswordPage"), "auth", "errors"),
  reset: page(() => import("@/features/auth/pages/ResetPasswordPage"), "auth", "errors"),
  verify: page(() => import("@/features/auth/pages/VerifyEmailPage"), "auth", "errors"),
  callback: page(() => import("@/features/auth/pages/OAuthCallbackPage"), "auth", "errors"),
};
const following = {
  browse: page(() => import("@/features/following/pages/FollowingPage"), "following", "errors"),
  personalization: page(() => import("@/features/following/pages/PersonalizationPage"), "following", "errors"),
  club: page(() => import("@/features/following/pages/ClubPage"), "following", "errors"),
  recommendation: page(() => import("@/features/following/pages/RecommendationPage"), "following", "errors"),
  clips: page(() => import("@/features/following/pages/SelectedClipsPage"), "following", "errors"),
  videos: page(() => import("@/features/following/pages/SelectedVideosPage"), "following", "errors"),
};

function r(
  path: string,
  name: string,
  layout: LayoutName,
  lazy: Page,
  middleware?: Middleware[],
  prefetch?: Prefetch,
): RouteObject {
  const handle: RouteHandle = { name, layout, middleware, prefetch };
  return { path, lazy: lazy(), handle, loader: guardLoader(handle), errorElement: <RouteErrorScreen /> };
}

/** A route named after its path ("events/:eventId" is "events-eventId"), as most are. */
const route = (path: string, layout: LayoutName, lazy: Page, middleware?: Middleware[], prefetch?: Prefetch) =>
  r(path, path.replaceAll(":", "").replaceAll("/", "-"), layout, lazy, middleware, prefetch);

const prefetchHome: Prefetch = (config, isAuthenticated) =>
  prefetchHomeRails(queryClient, config, isAuthenticated ? "viewer" : "guest");

/** The event itself, with the page's code and the player's (the first frame waits on all three). */
const prefetchEvent: Prefetch = (config, isAuthenticated, { params, url }) =>
  prefetchEventAnswer(queryClient, config, isAuthenticated ? "viewer" : "guest", params.eventId, url);

function index(): RouteObject {
  const handle: RouteHandle = { name: "index", layout: "home", prefetch: prefetchHome };
  return { index: true, lazy: catalog.home(), handle, loader: guardLoader(handle), errorElement: <RouteErrorScreen /> };
}

const LOGIN: Middleware[] = ["auth"];
/** The layout of every /account page. */
const ACCOUNT: LayoutName = "account";

function followingRoutes(prefix: string, namePrefix: string): RouteObject[] {
  const mw: Middleware[] = LOGIN;
  return [
    r(`${prefix}/league`, `${namePrefix}-league`, "default", following.browse, mw),
    r(`${prefix}/league/followed`, `${namePrefix}-league-followed`, "default", following.browse, mw),
    r(`${prefix}/league/:leagueId`, `${namePrefix}-league-leagueId`, "default", following.browse, mw),
    r(`${prefix}/league/:leagueId/followed`, `${namePrefix}-league-leagueId-followed`, "default", following.browse, mw),
    r(`${prefix}/category`, `${namePrefix}-category`, "default", following.browse, mw),
    r(`${prefix}/category/followed`, `${namePrefix}-category-followed`, "default", following.browse, mw),
    r(`${prefix}/category/:mainId`, `${namePrefix}-category-categoryId`, "default", following.browse, mw),
    r(
      `${prefix}/category/:mainId/followed`,
      `${namePrefix}-category-categoryId-followed`,
      "default",
      following.browse,
      mw,
    ),
  ];
}

/**
 * Every route of spec §2, each with its handle (src/lib/routeTypes.ts): the app's pages, without
 * locale prefix; mounted once at "/" and once under "/:locale".
 */
export function pageRoutes(): RouteObject[] {
  return [
    index(),
    route("home", "home", catalog.home, undefined, prefetchHome),
    route("about", "default", info.about),
    route("faq", "default", info.faq),
    route("terms", "default", info.terms),
    route("privacy", "default", info.privacy),
    route("latest", "default", catalog.latest),
    route("search", "default", catalog.search),
    route("archive", "default", catalog.archive),
    route("upcoming", "default", catalog.upcoming),
    route("highlight", "default", catalog.highlight),
    route("suggested", "default", catalog.suggested),
    route("live", "default", catalog.live),
    route("live/:sportType", "default", catalog.live),
    route("open-app", "default", info.openApp),
    route("info/:type", "default", info.info),
    route("events/stats/:eventId", "default", watching.eventStats),
    route("events/:eventId", "default", watching.event, undefined, prefetchEvent),
    route("channels/:eventId", "default", watching.channel),
    route("league/:leagueId", "default", catalog.league),
    route("category/:mainId", "default", catalog.category),
    route("category/:mainId/sub-category/:subId", "default", catalog.subCategory),
    route("team/:teamId", "default", catalog.team, ["disable-team-page"]),
    route("redirect/events/:referenceId", "default", watching.redirectEvent),

    route("club", "default", following.club, LOGIN),
    route("recommendation", "default", following.recommendation, LOGIN),
    route("selected/clips", "default", following.clips, LOGIN),
    route("selected/videos", "default", following.videos, LOGIN),
    route("multiview", "default", watching.multiview, LOGIN),

    // The account area: /account is its general section.
    route(
      "account",
      ACCOUNT,
      page(() => import("@/features/account/pages/GeneralSection"), "account", "errors"),
      LOGIN,
    ),
    route(
      "account/general",
      ACCOUNT,
      page(() => import("@/features/account/pages/GeneralSection"), "account", "errors"),
      LOGIN,
    ),
    route(
      "account/password",
      ACCOUNT,
      page(() => import("@/features/account/pages/PasswordSection"), "account", "errors"),
      LOGIN,
    ),
    route(
      "account/devices",
      ACCOUNT,
      page(() => import("@/features/account/pages/DevicesSection"), "account", "errors"),
      LOGIN,
    ),
    // What the viewer bought, and buying.
    route(
      "account/billing",
      ACCOUNT,
      page(() => import("@/features/commerce/pages/BillingPage"), "commerce", "errors"),
      LOGIN,
    ),
    route(
      "account/ppv",
      ACCOUNT,
      page(() => import("@/features/commerce/pages/PpvListPage"), "commerce", "errors"),
      LOGIN,
    ),
    route(
      "account/ppv/:id",
      ACCOUNT,
      page(() => import("@/features/commerce/pages/PpvPage"), "commerce", "errors"),
      LOGIN,
    ),
    route(
      "account/subscription",
      ACCOUNT,
      page(() => import("@/features/commerce/pages/SubscriptionPage"), "commerce", "errors"),
      LOGIN,
    ),
    route(
      "account/subscription/:id",
      ACCOUNT,
      page(() => import("@/features/commerce/pages/ContractPage"), "commerce", "errors"),
      LOGIN,
    ),
    route(
      "account/subscription/buy/:id",
      ACCOUNT,
      page(() => import("@/features/commerce/pages/BuySubscriptionPage"), "commerce", "errors"),
      LOGIN,
    ),
    route(
      "payment/failure",
      "auth",
      page(() => import("@/features/commerce/pages/PaymentFailurePage"), "commerce", "errors"),
      LOGIN,
    ),
    route(
      "payment/success",
      "auth",
      page(() => import("@/features/commerce/pages/PaymentSuccessPage"), "commerce", "errors"),
      LOGIN,
    ),
    route(
      "payment/processing",
      "auth",
      page(() => import("@/features/commerce/pages/PaymentProcessingPage"), "commerce", "errors"),
      LOGIN,
    ),

    route("auth/login", "auth", auth.login),
    route("auth/login/limit", "auth", auth.loginLimit),
    route("auth/sign-up", "auth", auth.signUp),
    route("auth/sign-up/personalization", "auth", following.personalization, LOGIN),
    route(
      "auth/sign-up/subscription",
      "auth",
      page(() => import("@/features/commerce/pages/SubscriptionListPage"), "commerce", "errors"),
    ),
    route(
      "auth/sign-up/subscription/buy/:id",
      "auth",
      page(() => import("@/features/commerce/pages/SignUpBuySubscriptionPage"), "commerce", "errors"),
      LOGIN,
    ),
    route(
      "auth/sign-up/subscription/code",
      "auth",
      page(() => import("@/features/commerce/pages/RedeemCodePage"), "commerce", "errors"),
      LOGIN,
    ),
    route("auth/password/reset", "auth", auth.reset),
    route("auth/password/forgot", "auth", auth.forgot),
    route("auth/verify", "auth", auth.verify),
    route("auth/oauth2/callback/:provider", "auth", auth.callback),

    ...followingRoutes("following", "following"),
    ...followingRoutes("auth/sign-up/following", "auth-sign-up-following"),

    {
      path: "*",
      loader: unmatchedLoader,
      element: <RouteErrorScreen notFound />,
      errorElement: <RouteErrorScreen />,
      handle: { name: "not-found", layout: "default" } satisfies RouteHandle,
    },
  ];
}
