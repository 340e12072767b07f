import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { commerceOptions, listEvents, newViewer, signInOnPage, staffToken, videoTime } from "./event-support";

/**
 * Buying (issue 15 §1) in the browser against the real server and its payment sandbox
 * (README "Payments and commerce"): pay-per-view, "requires action", refusals, no double
 * charges, subscriptions with the stored card, and access codes.
 */
const SUCCESS = "4242424242424242";
const DECLINED = "4000000000000002";
const REQUIRES_ACTION = "4000000000003220";

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
/** Games another test of this file bought already: every test buys a game of its own. */
const taken = new Set<string>();

async function payPerViewGame(request: APIRequestContext, status: string) {
  const games = await listEvents(request, { status: [status], media_type: ["event"] });
  for (const game of games) {
    if (game.commerce_type !== "commerce_ppv_media" || taken.has(game._id)) continue;
    const options = await commerceOptions(request, game._id);
    const product = options.products.find((item) => item.type === "ppv" && item.event_id === game._id);
    if (!options.availableForUser && product) {
      taken.add(game._id);
      return { game, productId: product._id };
    }
  }
  throw new Error(`no ${status} pay-per-view game with a product in the seed`);
}

async function fillCard(page: Page, number: string) {
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiry date").fill(`12/${String(new Date().getFullYear() + 3).slice(-2)}`);
  await page.getByLabel("Security code (CVC)").fill("123");
}

async function purchases(request: APIRequestContext, token: string) {
  const answer = await request.get("/api/commerce/ppv/purchases?size=100&count=true", { headers: bearer(token) });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { content: { totalCount: number; entries: { event_id: string; status: string }[] } })
    .content;
}

/** The paywall's Buy link, followed: the pay-per-view page of the game. */
async function openCheckout(page: Page, eventId: string, productId: string) {
  await expect(page.getByRole("region", { name: "Watch this match" })).toBeVisible();
  await page.getByRole("link", { name: /Buy this match/ }).click();
  await expect(page).toHaveURL(new RegExp(`/account/ppv/${eventId}\\?product=${productId}`));
  await expect(page.getByRole("heading", { name: "Buy this match" })).toBeVisible();
}

test("a signed-up viewer buys a live pay-per-view match with the success card, and the match plays", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const { game, productId } = await payPerViewGame(request, "live");
  const viewer = await newViewer(request, "ppv-buyer");
  await signInOnPage(page, viewer, `/events/${game._id}`);
  await openCheckout(page, game._id, productId);

  await page.getByRole("button", { name: /^Pay/ }).click();
  // The card form checks before sending: nothing typed, nothing sent.
  await expect(page.getByText("This field is required.").first()).toBeVisible();
  await page.getByLabel("Card number").fill("4242424242424241");
  await page.getByRole("button", { name: /^Pay/ }).click();
  await expect(page.getByText("This card number is not valid. Check it and try again.")).toBeVisible();

  await fillCard(page, SUCCESS);
  await page.getByRole("button", { name: /^Pay/ }).click();
  await expect(page).toHaveURL(/\/payment\/success/);
  await expect(page.getByText("Payment confirmed. Enjoy the match!")).toBeVisible();
  await page.getByRole("link", { name: "Watch the match" }).click();
  await expect(page).toHaveURL((url) => url.pathname === `/events/${game._id}`);
  await expect(page.getByRole("region", { name: "Watch this match" })).toHaveCount(0);
  await expect.poll(() => videoTime(page), { timeout: 30_000 }).toBeGreaterThan(0);
});

test('a "requires action" card goes through /payment/processing to success', async ({ page, request }) => {
  test.setTimeout(90_000);
  const { game, productId } = await payPerViewGame(request, "archived");
  const viewer = await newViewer(request, "ppv-action");
  await signInOnPage(page, viewer, `/events/${game._id}`);
  await openCheckout(page, game._id, productId);
  await fillCard(page, REQUIRES_ACTION);
  await page.getByRole("button", { name: /^Pay/ }).click();
  await expect(page).toHaveURL(/\/payment\/processing/);
  await expect(page.getByRole("heading", { name: "Processing your payment" })).toBeVisible();
  // A reload keeps waiting for the same purchase.
  await page.reload();
  await expect(page).toHaveURL(/\/payment\/success/, { timeout: 30_000 });
  await expect(page.getByText("Payment confirmed. Enjoy the match!")).toBeVisible();
  const bought = await purchases(request, viewer.token);
  expect(bought.entries.filter((entry) => entry.event_id === game._id).map((entry) => entry.status)).toEqual([
    "success",
  ]);
});

test("a declined card shows the failure page with the reason", async ({ page, request }) => {
  const { game, productId } = await payPerViewGame(request, "archived");
  const viewer = await newViewer(request, "ppv-declined");
  await signInOnPage(page, viewer, `/events/${game._id}`);
  await openCheckout(page, game._id, productId);
  await fillCard(page, DECLINED);
  await page.getByRole("button", { name: /^Pay/ }).click();
  await expect(page).toHaveURL(/\/payment\/failure/);
  await expect(page.getByRole("heading", { name: "Payment failed" })).toBeVisible();
  await expect(page.getByRole("alert")).toContainText(/declined/i);
  await page.getByRole("link", { name: "Try again" }).click();
  await expect(page).toHaveURL(new RegExp(`/account/ppv/${game._id}\\?product=${productId}`));
});

test("a double-clicked Pay charges once", async ({ page, request }) => {
  const { game, productId } = await payPerViewGame(request, "archived");
  const viewer = await newViewer(request, "ppv-double");
  const payCalls: string[] = [];
  page.on("request", (sent) => {
    if (sent.url().includes("/api/commerce/ppv/purchase") && sent.method() === "POST")
      payCalls.push(sent.headers()["idempotency-key"] ?? "");
  });
  await signInOnPage(page, viewer, `/events/${game._id}`);
  await openCheckout(page, game._id, productId);
  await fillCard(page, SUCCESS);
  await page.getByRole("button", { name: /^Pay/ }).dblclick();
  await expect(page).toHaveURL(/\/payment\/success/);
  const bought = await purchases(request, viewer.token);
  expect(bought.totalCount).toBe(1);
  expect(bought.entries[0].status).toBe("success");
  // However many calls went out, they carried one key.
  expect(payCalls.length).toBeGreaterThan(0);
  expect(new Set(payCalls).size).toBe(1);
});

test("a viewer stores a card, subscribes with it, sees the contract and cancels it", async ({ page, request }) => {
  test.setTimeout(90_000);
  const plans = await request.get("/api/commerce/get_subscriptions?type=svod");
  const svod = ((await plans.json()) as { content: { entries: { _id: string; title: string }[] } }).content.entries[0];
  expect(svod, "the seed has a subscription on sale").toBeDefined();
  const viewer = await newViewer(request, "subscriber");
  await signInOnPage(page, viewer, "/account/billing");

  await expect(page.getByRole("heading", { name: "Billing" })).toBeVisible();
  await fillCard(page, SUCCESS);
  await page.getByRole("button", { name: "Add card" }).click();
  await expect(page.getByText(/Visa ending in 4242/)).toBeVisible();

  await page.goto(`/account/subscription/buy/${svod._id}`);
  await expect(page.getByRole("radio", { name: /Visa ending in 4242/ })).toBeChecked();
  await expect(page.getByLabel("Card number")).toHaveCount(0);
  await page.getByRole("button", { name: /^Pay/ }).click();
  await expect(page).toHaveURL(/\/payment\/success/);
  await expect(page.getByText("Payment confirmed. Your subscription is active.")).toBeVisible();

  await page.goto("/account/subscription");
  const contract = page.getByRole("article", { name: svod.title });
  await expect(contract).toBeVisible();
  await expect(contract.getByText("Active")).toBeVisible();
  await expect(contract.getByText("Next renewal")).toBeVisible();
  await contract.getByRole("button", { name: "Cancel subscription" }).click();
  await contract.getByRole("button", { name: "Yes, cancel at period end" }).click();
  await expect(contract.getByText("Canceled", { exact: true })).toBeVisible();
  await expect(contract.getByText("Ends on")).toBeVisible();
  await expect(contract.getByRole("button", { name: "Cancel subscription" })).toHaveCount(0);

  const answer = await request.get("/api/commerce/customer_contracts", { headers: bearer(viewer.token) });
  const entries = ((await answer.json()) as { content: { entries: { canceled: boolean; active: boolean }[] } }).content
    .entries;
  expect(entries).toEqual([expect.objectContaining({ canceled: true, active: true })]);
});

test("an access code issued by staff is redeemed once, and a used one is refused", async ({
  page,
  browser,
  request,
}) => {
  const staff = await staffToken(request);
  const { game } = await payPerViewGame(request, "archived");
  const issued = await request.post("/api/admin/access_codes", {
    headers: bearer(staff),
    data: { event_id: game._id, count: 1, uses: 1 },
  });
  expect(issued.ok(), await issued.text()).toBe(true);
  const [code] = ((await issued.json()) as { content: { codes: string[] } }).content.codes;

  const first = await newViewer(request, "redeemer");
  await signInOnPage(page, first, "/auth/sign-up/subscription/code");
  await page.getByLabel("Access code").fill("nope");
  await page.getByRole("button", { name: "Redeem" }).click();
  await expect(page.getByText("This code does not exist or has been revoked. Check it and try again.")).toBeVisible();
  await page.getByLabel("Access code").fill(code.toLowerCase());
  await page.getByRole("button", { name: "Redeem" }).click();
  await expect(page.getByRole("status").filter({ hasText: /Code redeemed/ })).toBeVisible();
  expect((await purchases(request, first.token)).entries.map((entry) => entry.event_id)).toEqual([game._id]);

  // Another viewer, in a browser of their own.
  const context = await browser.newContext();
  const other = await context.newPage();
  const second = await newViewer(request, "late-redeemer");
  await signInOnPage(other, second, "/auth/sign-up/subscription/code");
  await other.getByLabel("Access code").fill(code);
  await other.getByRole("button", { name: "Redeem" }).click();
  await expect(other.getByText("This code has already been used.")).toBeVisible();
  expect((await purchases(request, second.token)).entries).toEqual([]);
  await context.close();
});

test("the plans of the sign-up flow show price, period, renewal and what they unlock, in Hebrew right to left", async ({
  page,
}) => {
  await page.goto("/auth/sign-up/subscription");
  await expect(page.getByRole("heading", { name: "Choose a plan" })).toBeVisible();
  const plan = page
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { level: 2 }) })
    .first();
  await expect(plan.getByText("Price")).toBeVisible();
  await expect(plan.getByText("Renewal")).toBeVisible();
  await expect(plan.getByText("Unlocks")).toBeVisible();
  await expect(plan.getByRole("link", { name: /^Choose / })).toHaveAttribute(
    "href",
    /^\/auth\/sign-up\/subscription\/buy\//,
  );

  await page.goto("/he/auth/sign-up/subscription");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.getByRole("heading", { name: "בחירת תוכנית" })).toBeVisible();
  await expect(page.getByRole("link", { name: "מימוש קוד גישה" })).toHaveAttribute(
    "href",
    "/he/auth/sign-up/subscription/code",
  );
});
