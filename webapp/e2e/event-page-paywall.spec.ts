import { expect, test, type APIRequestContext } from "@playwright/test";
import {
  buyPayPerView,
  commerceOptions,
  listEvents,
  markPage,
  newViewer,
  pageWasNotReloaded,
  recordTraffic,
  signedStreams,
  signInOnPage,
  socketMessage,
  videoTime,
} from "./event-support";

/** A pay-per-view game of the seeded catalogue with its own pay-per-view product. */
async function payPerViewGame(request: APIRequestContext, status: string, skip: string[] = []) {
  const games = await listEvents(request, { status: [status], media_type: ["event"] });
  for (const game of games) {
    if (game.commerce_type !== "commerce_ppv_media" || skip.includes(game._id)) continue;
    const options = await commerceOptions(request, game._id);
    const product = options.products.find((item) => item.type === "ppv" && item.event_id === game._id);
    if (!options.availableForUser && product) return { game, productId: product._id };
  }
  throw new Error(`no ${status} pay-per-view game with a product in the seed`);
}

test("an unentitled viewer sees the paywall, and no stream address reaches the page", async ({ page, request }) => {
  const { game, productId } = await payPerViewGame(request, "live");
  const traffic = recordTraffic(page);
  await page.goto(`/events/${game._id}`);

  const paywall = page.getByRole("region", { name: "Watch this match" });
  await expect(paywall).toBeVisible();
  await expect(paywall.getByText("This match is pay-per-view.")).toBeVisible();
  const buy = paywall.getByRole("link", { name: /Buy this match/ });
  await expect(buy).toContainText(/\d/);
  await expect(buy).toHaveAttribute("href", new RegExp(`^/auth/login/\\?redirect=.*account%2Fppv%2F${game._id}`));
  await expect(paywall.getByRole("link", { name: "Redeem a code" })).toBeVisible();
  await page.waitForLoadState("networkidle");

  expect(traffic.requests.filter((url) => url.includes(".m3u8"))).toEqual([]);
  const bodies = await traffic.bodies();
  // The event's own answers carry no stream address at all: the event comes with the page itself
  // (server/first_view.py), its commerce options from the API.
  const own = bodies.filter(
    (answer) =>
      answer.url.endsWith(`/events/${game._id}`) ||
      answer.url.includes(`/api/event/get_commerce_options?eventId=${game._id}`),
  );
  expect(own.length).toBe(2);
  const carried = own.find((answer) => answer.url.endsWith(`/events/${game._id}`))?.body;
  expect(carried).toContain(`"path":"/event/get_by_id/id/${game._id}"`);
  for (const answer of own) expect(signedStreams(answer.body), answer.url).toEqual([]);
  await expect(page.locator("video")).toHaveCount(0);
  // Other videos on the page (free highlights, related games) may carry their own addresses; none
  // is in this game's directory, which a buyer's address names.
  const buyer = await newViewer(request, "paywall-buyer");
  await buyPayPerView(request, buyer.token, game._id, productId, "4242424242424242");
  const gameStream = async () => {
    const answer = await request.get(`/api/event/get_by_id/id/${game._id}`, {
      headers: { Authorization: `Bearer ${buyer.token}` },
    });
    return ((await answer.json()) as { content: { content: { HLSStream: string | null } } }).content.content.HLSStream;
  };
  await expect.poll(gameStream, { timeout: 10_000 }).not.toBeNull();
  const directory = (await gameStream())!.split("?")[0].replace(/[^/]+$/, "");
  for (const answer of bodies)
    for (const stream of signedStreams(answer.body)) expect(stream, answer.url).not.toContain(directory);
});

test("a purchase announced by user-purchase-status starts the player without a reload", async ({ page, request }) => {
  test.setTimeout(60_000);
  const { game, productId } = await payPerViewGame(request, "archived");
  const viewer = await newViewer(request, "buyer");
  const traffic = recordTraffic(page);
  const announced = socketMessage(page, "user-purchase-status");
  await signInOnPage(page, viewer, `/events/${game._id}`);
  await expect(page.getByRole("region", { name: "Watch this match" })).toBeVisible();
  await expect(page.getByRole("link", { name: /Buy this match/ })).toHaveAttribute(
    "href",
    new RegExp(`^/account/ppv/${game._id}\\?product=${productId}`),
  );
  expect(traffic.requests.filter((url) => url.includes(".m3u8"))).toEqual([]);
  await markPage(page);

  // The sandbox card that "requires action": 202 now, settled a few seconds later and announced
  // to the viewer's user room.
  const bought = await buyPayPerView(request, viewer.token, game._id, productId, "4000000000003220");
  expect(bought.status).toBe(202);

  const message = await announced;
  expect(message).toContain(bought.purchase._id);
  expect(message).toContain('"success"');
  await expect(page.getByText("Payment confirmed. Enjoy the match!")).toBeVisible();
  await expect(page.getByRole("region", { name: "Watch this match" })).toHaveCount(0);
  // The player starts (a pre-roll may come first, then the match's own stream).
  await expect.poll(() => videoTime(page), { timeout: 20_000 }).toBeGreaterThan(0);
  await expect
    .poll(() => traffic.requests.filter((url) => url.includes(".m3u8")).length, { timeout: 30_000 })
    .toBeGreaterThan(0);
  await pageWasNotReloaded(page);
});
