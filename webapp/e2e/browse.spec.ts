import { expect, test } from "@playwright/test";

test("home → a league → an event card opens the event page", async ({ page }) => {
  await page.goto("/");
  const leagues = page.getByRole("region", { name: /leagues/i });
  const league = leagues
    .getByRole("link")
    .filter({ hasNot: page.getByText(/see all/i) })
    .first();
  await expect(league).toBeVisible();
  await league.click();
  await expect(page).toHaveURL(/\/league\/[0-9a-f]{24}$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

  const card = page.locator('main a[href*="/events/"]').first();
  await expect(card).toBeVisible();
  const name = (await card.getAttribute("aria-label")) ?? (await card.innerText());
  await card.click();
  await expect(page).toHaveURL(/\/events\/[0-9a-f]{24}$/);
  const title = page.getByRole("heading", { level: 1 });
  await expect(title).toBeVisible();
  expect(name).toContain((await title.innerText()).trim().split("\n")[0].slice(0, 10));
});

test("a first visit renders from the answers the page carries, not from calls of its own", async ({
  page,
  request,
}) => {
  // server/first_view.py puts them into the page: a call here would mean its requests drifted from the app's.
  const seeded = /^(GET \/api\/config|POST \/api\/(event|clip|identity)\/list|GET \/api\/event\/get_by_id\/.*)$/;
  const asked: string[] = [];
  page.on("request", (call) => {
    const line = `${call.method()} ${new URL(call.url()).pathname}`;
    if (seeded.test(line)) asked.push(line);
  });
  await page.goto("/");
  await expect(
    page
      .getByRole("region", { name: /leagues/i })
      .getByRole("link")
      .first(),
  ).toBeVisible();
  const card = page.locator('main a[href*="/events/"]').first();
  await expect(card).toBeVisible();
  expect(asked).toEqual([]);

  const answer = await request.post("/api/event/list", {
    data: { page: 0, size: 1, filters: { status: ["upcoming"] } },
  });
  const [event] = ((await answer.json()) as { content: { entries: { _id: string; title: string }[] } }).content.entries;
  await page.goto(`/events/${event._id}`);
  await expect(page.getByRole("heading", { level: 1, name: event.title })).toBeVisible();
  // The event and the configuration came with the page (its lists below still ask for their own).
  expect(asked.filter((line) => !line.startsWith("POST"))).toEqual([]);
});

test("search finds events as you type", async ({ page }) => {
  await page.goto("/search");
  const box = page.getByRole("main").getByRole("searchbox");
  await box.fill("United");
  await expect(page).toHaveURL(/[?&]q=United/);
  await expect(page.locator('main a[href*="/events/"]').first()).toBeVisible();
  await box.fill("zzzz-no-such-team");
  await expect(page.getByText(/no (results|events|matches)/i).first()).toBeVisible();
});

test("an unknown path shows the not-found screen with a way home", async ({ page }) => {
  await page.goto("/no/such/page");
  await expect(page.getByText("Page not found: /no/such/page")).toBeVisible();
  await page
    .getByRole("link", { name: /home/i })
    .or(page.getByRole("button", { name: /home/i }))
    .first()
    .click();
  await expect(page).toHaveURL(/\/$/);
});

test("an unknown event shows the event not-found screen", async ({ page }) => {
  await page.goto("/events/ffffffffffffffffffffffff");
  await expect(page.getByRole("heading", { name: /event/i })).toBeVisible();
});
