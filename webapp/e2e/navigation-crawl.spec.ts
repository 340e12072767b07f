import { AxeBuilder } from "@axe-core/playwright";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { newViewer, signInOnPage } from "./event-support";
import { confirmSignUp } from "./mailbox";

/**
 * A person moving through the app: from "/", it clicks in-app links and controls (header, chips,
 * tabs, cards, breadcrumbs, the language selector, the theme), never `page.goto`, and after every
 * client-side navigation checks that `main` shows content and no error screen. axe checks each kind
 * of page once per crawl. The pages that share a screen (/live and /live/:sportType, the following
 * pages, a page under "/" and "/:locale") once rendered an empty `main` after such a click.
 */

/** Spec §2's route kinds, without locale prefix; ids and names become a parameter. */
const ROUTE_KINDS: [kind: string, pattern: RegExp][] = [
  ["/", /^\/$/],
  ["/home", /^\/home$/],
  ["/about", /^\/about$/],
  ["/faq", /^\/faq$/],
  ["/terms", /^\/terms$/],
  ["/privacy", /^\/privacy$/],
  ["/latest", /^\/latest$/],
  ["/search", /^\/search$/],
  ["/archive", /^\/archive$/],
  ["/upcoming", /^\/upcoming$/],
  ["/highlight", /^\/highlight$/],
  ["/suggested", /^\/suggested$/],
  ["/live", /^\/live$/],
  ["/live/{sportType}", /^\/live\/[^/]+$/],
  ["/open-app", /^\/open-app$/],
  ["/info/{type}", /^\/info\/[^/]+$/],
  ["/events/stats/{eventId}", /^\/events\/stats\/[^/]+$/],
  ["/events/{eventId}", /^\/events\/[^/]+$/],
  ["/channels/{eventId}", /^\/channels\/[^/]+$/],
  ["/league/{leagueId}", /^\/league\/[^/]+$/],
  ["/category/{mainId}/sub-category/{subId}", /^\/category\/[^/]+\/sub-category\/[^/]+$/],
  ["/category/{mainId}", /^\/category\/[^/]+$/],
  ["/team/{teamId}", /^\/team\/[^/]+$/],
  ["/club", /^\/club$/],
  ["/recommendation", /^\/recommendation$/],
  ["/selected/clips", /^\/selected\/clips$/],
  ["/selected/videos", /^\/selected\/videos$/],
  ["/multiview", /^\/multiview$/],
  ["/account/{section}", /^\/account(\/(general|password|devices|billing|ppv|subscription))?$/],
  ["/account/{section}/{id}", /^\/account\/(ppv|subscription|subscription\/buy)\/[^/]+$/],
  ["/auth/login", /^\/auth\/login$/],
  ["/auth/sign-up", /^\/auth\/sign-up$/],
  ["/auth/sign-up/subscription", /^\/auth\/sign-up\/subscription$/],
  ["/auth/sign-up/subscription/code", /^\/auth\/sign-up\/subscription\/code$/],
  ["/auth/sign-up/subscription/buy/{id}", /^\/auth\/sign-up\/subscription\/buy\/[^/]+$/],
  ["/auth/sign-up/personalization", /^\/auth\/sign-up\/personalization$/],
  ["/auth/sign-up/following/...", /^\/auth\/sign-up\/following\/(league|category)(\/[^/]+)?(\/followed)?$/],
  ["/auth/login/limit", /^\/auth\/login\/limit$/],
  ["/auth/password/reset", /^\/auth\/password\/reset$/],
  ["/auth/verify", /^\/auth\/verify$/],
  ["/payment/{outcome}", /^\/payment\/(failure|success|processing)$/],
  ["/auth/password/forgot", /^\/auth\/password\/forgot$/],
  ["/following/{level}", /^\/following\/(league|category)(\/followed)?$/],
  ["/following/{level}/{id}", /^\/following\/(league|category)\/[^/]+(\/followed)?$/],
];

/** Kinds every anonymous crawl must reach by clicking. */
const ANONYMOUS_KINDS = [
  "/",
  "/about",
  "/faq",
  "/terms",
  "/privacy",
  "/latest",
  "/search",
  "/archive",
  "/upcoming",
  "/highlight",
  "/live",
  "/live/{sportType}",
  "/events/{eventId}",
  "/events/stats/{eventId}",
  "/channels/{eventId}",
  "/league/{leagueId}",
  "/category/{mainId}",
  "/team/{teamId}",
  "/auth/login",
  "/auth/sign-up",
  "/auth/password/forgot",
];

/** And every signed-in crawl, besides the public ones. */
const SIGNED_IN_KINDS = [
  "/",
  "/account/{section}",
  "/following/{level}",
  "/following/{level}/{id}",
  "/events/{eventId}",
];

const LOCALE_PREFIX = /^\/(de|es|fr|fr-CA|he|it|pl|pt|ca|ko|zh|bs-BA|uk-UA)(?=\/|$)/;

function kindOf(url: string): string {
  const path = new URL(url).pathname.replace(LOCALE_PREFIX, "").replace(/\/$/, "") || "/";
  const found = ROUTE_KINDS.find(([, pattern]) => pattern.test(path));
  if (!found) throw new Error(`the crawl reached ${path}, which is no route of spec §2`);
  return found[0];
}

/** In-app places the crawl never clicks: they leave the app, sign out, or only download. */
const SKIP = /^\/(api|media|ws)\b|\/auth\/(logout|oauth2)|^\/redirect\//;

interface Crawl {
  page: Page;
  /** Navigations done, each checked. */
  count: number;
  kinds: Set<string>;
  hrefs: Set<string>;
  axeChecked: Set<string>;
  trail: string[];
}

const MARK = "touchlineCrawl";

function startCrawl(page: Page): Crawl {
  return { page, count: 0, kinds: new Set(), hrefs: new Set(), axeChecked: new Set(), trail: [] };
}

/** Marks the document: a full page load would drop the mark, a client-side navigation keeps it. */
async function markDocument(page: Page) {
  await page.evaluate((mark) => ((window as unknown as Record<string, boolean>)[mark] = true), MARK);
}

/** What a person sees after the click: content in main, no error screen, the same document. */
async function checkPage(crawl: Crawl, what: string) {
  const { page } = crawl;
  crawl.count += 1;
  crawl.trail.push(`${what} → ${new URL(page.url()).pathname}`);
  const trail = `after ${crawl.trail.slice(-3).join(", ")}`;
  const main = page.locator("main");
  await expect(main, `main is visible ${trail}`).toBeVisible({ timeout: 5_000 });
  await expect
    .poll(async () => (await main.innerText()).replace(/\s+/g, " ").trim().length, {
      message: `main has visible text ${trail}`,
      timeout: 6_000,
    })
    .toBeGreaterThan(10);
  await expect(main.locator(".page-skeleton"), `the page has left its skeleton ${trail}`).toHaveCount(0, {
    timeout: 8_000,
  });
  await expect(page.locator(".status-screen"), `no error screen ${trail}`).toHaveCount(0);
  const kept = await page.evaluate((mark) => (window as unknown as Record<string, boolean>)[mark] === true, MARK);
  expect(kept, `a client-side navigation, not a page load, ${trail}`).toBe(true);

  const kind = kindOf(page.url());
  crawl.kinds.add(kind);
  crawl.hrefs.add(new URL(page.url()).pathname);
  if (!crawl.axeChecked.has(kind)) {
    crawl.axeChecked.add(kind);
    await checkAccessibility(page, kind);
  }
}

async function checkAccessibility(page: Page, kind: string) {
  // The player's third-party web components are checked by their own kits; the page around them is ours.
  const results = await new AxeBuilder({ page }).exclude("media-controller").analyze();
  const severe = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const landmarks = results.violations.filter((v) => v.id.startsWith("landmark"));
  const described = [...severe, ...landmarks].map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
  );
  expect(described, `axe on ${kind} (${page.url()})`).toEqual([]);
}

/** Clicks a link or control and checks where it went. */
async function clickAndCheck(crawl: Crawl, target: Locator, what: string) {
  const before = crawl.page.url();
  // click() scrolls the link into view itself and finds it again if a render replaced it meanwhile
  await target.click();
  await expect.poll(() => crawl.page.url(), { message: `${what} navigates`, timeout: 8_000 }).not.toBe(before);
  await checkPage(crawl, what);
}

interface Candidate {
  href: string;
  region: string;
  /** The link's href attribute as written, by which it is found again when clicked. */
  raw: string;
}

/** The visible in-app links of the page, in document order. */
async function inAppLinks(page: Page): Promise<Candidate[]> {
  const links = await page.locator("header a[href], main a[href], footer a[href], nav a[href]").evaluateAll((as) =>
    as.map((a) => {
      const el = a as HTMLAnchorElement;
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      const visible = box.width > 0 && box.height > 0 && style.visibility !== "hidden";
      const sameOrigin = el.origin === location.origin && !el.target && !el.hasAttribute("download");
      const region = ["header", "footer", "main", "nav"].find((tag) => el.closest(tag)) ?? "main";
      return { href: visible && sameOrigin ? el.pathname + el.search : "", region, raw: el.getAttribute("href") ?? "" };
    }),
  );
  return links.filter((link) => link.href && !link.href.startsWith("#"));
}

/** The links that lead elsewhere; as a person would, it waits for one while the page lays them out. */
async function linksAway(page: Page, here: string): Promise<Candidate[]> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const away = (await inAppLinks(page)).filter((link) => !SKIP.test(link.href) && link.href !== here);
    if (away.length || Date.now() > deadline) return away;
    await page.waitForTimeout(250);
  }
}

/**
 * Follows links by clicking, preferring a kind of page not seen yet, then a page not seen yet,
 * until `steps` navigations are done.
 */
async function wander(crawl: Crawl, steps: number, wanted: string[]) {
  const { page } = crawl;
  for (let step = 0; step < steps; step++) {
    const here = new URL(page.url()).pathname + new URL(page.url()).search;
    const away = await linksAway(page, here);
    const kindOfLink = (link: Candidate) => kindOf(new URL(link.href, page.url()).href);
    const pick =
      away.find((link) => wanted.includes(kindOfLink(link)) && !crawl.kinds.has(kindOfLink(link))) ??
      away.find((link) => !crawl.kinds.has(kindOfLink(link))) ??
      away.find((link) => !crawl.hrefs.has(new URL(link.href, page.url()).pathname)) ??
      away[step % Math.max(1, away.length)];
    if (!pick) throw new Error(`no in-app link to follow on ${page.url()}`);
    // Found again by its href when clicked, not by its position: a page that renders again between
    // the listing and the click (a rail that loads, a live card that moves) replaces its elements.
    const target = page
      .locator(`${pick.region} a[href=${JSON.stringify(pick.raw)}]`)
      .filter({ visible: true })
      .first();
    await clickAndCheck(crawl, target, `a ${pick.region} link to ${pick.href}`);
  }
}

/** A header link by its name, as a person would find it. */
const headerLink = (page: Page, name: string | RegExp) =>
  page
    .locator("header")
    .getByRole("link", { name, exact: typeof name === "string" })
    .first();

async function chooseLanguage(crawl: Crawl, label: string) {
  const select = crawl.page.locator("header").getByRole("combobox").first();
  const before = crawl.page.url();
  await select.selectOption({ label });
  await expect.poll(() => crawl.page.url(), { message: `choosing ${label} navigates` }).not.toBe(before);
  await checkPage(crawl, `the language selector (${label})`);
}

/** The header's search box: typing and Enter lead to the search page. */
async function searchFromHeader(crawl: Crawl, words: string) {
  const box = crawl.page.locator("header").getByRole("searchbox").first();
  if (!(await box.isVisible()))
    await crawl.page
      .locator("header")
      .getByRole("button", { name: /search/i })
      .first()
      .click();
  await box.fill(words);
  await box.press("Enter");
  await expect(crawl.page).toHaveURL(/\/search\?q=/);
  await checkPage(crawl, `the header's search for ${words}`);
}

/** The sport chips of /live: a sport, another, then "All sports" again. */
async function liveChips(crawl: Crawl) {
  const { page } = crawl;
  await clickAndCheck(crawl, headerLink(page, "Live"), "the header's Live");
  const sports = page.locator('main a[href*="/live/"]');
  await expect(sports.first()).toBeVisible();
  const count = Math.min(await sports.count(), 3);
  for (let i = 0; i < count; i++) {
    await clickAndCheck(crawl, page.locator('main a[href*="/live/"]').nth(i), `sport chip ${i + 1}`);
    await expect(page.locator("main .event-grid, main [role=list], main p").first()).toBeVisible();
  }
  await clickAndCheck(
    crawl,
    page
      .locator("main")
      .getByRole("link")
      .filter({ hasText: /all sports/i })
      .first(),
    "the chip All sports",
  );
}

/** From /live, a live match and its stats: which matches the wander happens upon depends on the
 * clock (a game offers stats, an upcoming one, a highlight or a studio show does not), so this
 * opens the live matches in turn until one offers them, going back by the header's Live. */
async function liveMatchStats(crawl: Crawl) {
  const { page } = crawl;
  const stats = page.locator("main").getByRole("link", { name: "Match stats", exact: true });
  const matches = await page
    .locator('main a[href*="/events/"]')
    .evaluateAll((links) =>
      links.filter((link) => link.getBoundingClientRect().width > 0).map((link) => link.getAttribute("href") ?? ""),
    );
  for (const href of [...new Set(matches)].slice(0, 6)) {
    const match = page
      .locator(`main a[href=${JSON.stringify(href)}]`)
      .filter({ visible: true })
      .first();
    await clickAndCheck(crawl, match, "a live match");
    if (await stats.first().isVisible()) {
      await clickAndCheck(crawl, stats.first(), "its Match stats");
      await expect(page).toHaveURL(/\/events\/stats\//);
      return;
    }
    await clickAndCheck(crawl, headerLink(page, "Live"), "the header's Live");
  }
  throw new Error(`none of the live matches on /live offers its stats: ${matches.join(", ")}`);
}

async function followingTabs(crawl: Crawl) {
  const { page } = crawl;
  // The following pages share one screen: tabs and their Followed/All switches.
  const tabs: [string, RegExp][] = [
    ["Categories", /\/following\/category\/?$/],
    ["Leagues", /\/following\/league\/?$/],
  ];
  for (const [name, url] of tabs) {
    await clickAndCheck(crawl, page.locator("main").getByRole("link", { name, exact: true }).first(), `tab ${name}`);
    await expect(page).toHaveURL(url);
    await clickAndCheck(
      crawl,
      page.locator("main").getByRole("link", { name: "Followed", exact: true }).first(),
      `${name}: Followed`,
    );
    await clickAndCheck(
      crawl,
      page.locator("main").getByRole("link", { name: "All", exact: true }).first(),
      `${name}: All`,
    );
  }
  // A league's teams (the tabs end on Leagues), its followed ones, and all of them again.
  const main = page.locator("main");
  await clickAndCheck(crawl, main.locator(".follow-tile__link").first(), "a league of the following page");
  await clickAndCheck(crawl, main.getByRole("link", { name: "Followed", exact: true }).first(), "its Followed");
  await clickAndCheck(crawl, main.getByRole("link", { name: "All", exact: true }).first(), "its All");
}

async function signUpOnPage(page: Page) {
  const email = `newcomer-${Date.now()}@example.com`;
  await page.goto("/auth/sign-up");
  await page.getByLabel(/name/i).first().fill("Nova Newcomer");
  await page.getByLabel(/e-?mail/i).fill(email);
  await page.getByLabel(/^password$/i).fill("a-long-enough-password-2026");
  await page.getByLabel(/confirm|repeat/i).fill("a-long-enough-password-2026");
  await page.getByRole("checkbox").first().check();
  await page.getByRole("button", { name: /sign up|create/i }).click();
  await confirmSignUp(page, email); // "check your mail"; the mailed link signs the account in
  await expect(page).toHaveURL(/\/auth\/sign-up\/personalization\/?$/);
}

test.describe("the navigation crawl", () => {
  // 60 checked clicks with axe on each kind of page: minutes on a loaded two-core machine. (Run
  // in parallel mode, two crawls at once beside the contract checks slowed everything down.)
  test.describe.configure({ timeout: 600_000 });
  // A control that never appears fails its step within half a minute, not at the crawl's timeout.
  test.use({ actionTimeout: 30_000 });

  test("anonymous: 60 clicks through every public kind of page, main never blank", async ({ page }) => {
    const crawl = startCrawl(page);
    await page.goto("/");
    await markDocument(page);
    await checkPage(crawl, "the first page");

    await liveChips(crawl);
    await liveMatchStats(crawl);
    await clickAndCheck(crawl, headerLink(page, "Upcoming"), "the header's Upcoming");
    await clickAndCheck(crawl, headerLink(page, "Live"), "the header's Live");
    await chooseLanguage(crawl, "Deutsch");
    await chooseLanguage(crawl, "עברית");
    await chooseLanguage(crawl, "English");
    await crawl.page.locator("header").getByRole("button", { name: /theme/i }).first().click();
    await checkPage(crawl, "the theme switch");
    crawl.count -= 1; // the theme is no navigation
    await clickAndCheck(crawl, headerLink(page, /homepage/i), "the logo");
    await searchFromHeader(crawl, "Ashford");

    await wander(crawl, 60 - crawl.count, ANONYMOUS_KINDS);
    const missing = ANONYMOUS_KINDS.filter((kind) => !crawl.kinds.has(kind));
    expect(missing, `kinds of page the crawl never reached: ${crawl.trail.join("; ")}`).toEqual([]);
    expect(crawl.count).toBeGreaterThanOrEqual(60);
  });

  test("sign-up onboarding: from a league to its teams and back, following a team, without a reload", async ({
    page,
  }) => {
    await signUpOnPage(page);
    await markDocument(page);
    const crawl = startCrawl(page);
    const main = page.locator("main");
    const nav = main.getByRole("navigation").first();
    const tile = main.locator(".follow-tile__link").first();
    await clickAndCheck(crawl, nav.getByRole("link", { name: /league/i }).first(), "by league");
    for (const round of [1, 2]) {
      await clickAndCheck(crawl, tile, `a league's teams (${round})`);
      await expect(main.getByRole("button", { name: /^follow /i }).first()).toBeVisible();
      await clickAndCheck(crawl, nav.getByRole("link", { name: /categor/i }).first(), `categories (${round})`);
      await clickAndCheck(crawl, tile, `a category's leagues (${round})`);
      await clickAndCheck(crawl, nav.getByRole("link", { name: /league/i }).first(), `leagues (${round})`);
    }
    await clickAndCheck(crawl, tile, "a league's teams, at last");
    const team = main.getByRole("button", { name: /^follow /i }).first();
    const name = ((await team.getAttribute("aria-label")) ?? "").replace(/^follow /i, "");
    await team.click();
    await expect(main.getByRole("button", { name: `Unfollow ${name}`, exact: true })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    expect(crawl.count).toBe(10);
  });

  test("signed in: 60 clicks through the public, account and following pages, main never blank", async ({
    page,
    request,
  }) => {
    const viewer = await newViewer(request, "crawler");
    await signInOnPage(page, viewer, "/");
    const crawl = startCrawl(page);
    await markDocument(page);
    await checkPage(crawl, "the first page");

    await liveChips(crawl);
    // Every link of the user menu ("My stuff" and the account), each opened from the menu.
    const menuButton = page.locator("header").getByRole("button", { name: /crawler/i });
    await menuButton.click();
    const menuLinks = page.locator(".user-menu__popup").getByRole("link");
    const names = await menuLinks.allInnerTexts();
    expect(names.length).toBeGreaterThan(0);
    await menuButton.click();
    for (const name of names) {
      await menuButton.click();
      await clickAndCheck(crawl, menuLinks.filter({ hasText: name }).first(), `the user menu's ${name}`);
      if (kindOf(page.url()).startsWith("/following")) await followingTabs(crawl);
    }
    await chooseLanguage(crawl, "Deutsch");
    await chooseLanguage(crawl, "English");

    await wander(crawl, 60 - crawl.count, [...SIGNED_IN_KINDS, ...ANONYMOUS_KINDS]);
    const missing = SIGNED_IN_KINDS.filter((kind) => !crawl.kinds.has(kind));
    expect(missing, `kinds of page the crawl never reached: ${crawl.trail.join("; ")}`).toEqual([]);
    expect(crawl.count).toBeGreaterThanOrEqual(60);
  });
});
