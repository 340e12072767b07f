import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { createEvent, goLive, newViewer, signInOnPage, staffToken } from "./event-support";
import { TEAM, followTheTeam } from "./following-support";

// Go-live alerts (issue 31 §4): when a match of a team the viewer follows goes live, every open
// tab shows a toast with "Watch now", on any page; an opt-in mail goes out once; spoiler-free mode
// keeps the score out of the toast.

interface OutboxPage {
  content: { entries: { to: string; subject: string; kind: string }[] };
}

/**
 * Follows the page's sockets (register before the page loads): `joined()` waits until the latest
 * socket, the one the last full page load opened, has joined its viewer's room. An alert sent
 * while a tab's new socket has not joined yet never reaches that tab.
 */
function userRoom(page: Page): { joined: () => Promise<void> } {
  let opened = 0;
  let joinedUpTo = 0;
  page.on("websocket", (socket) => {
    const mine = ++opened;
    socket.on("framereceived", ({ payload }) => {
      if (/"ok\\?":\s*true.*user:/.test(String(payload))) joinedUpTo = Math.max(joinedUpTo, mine);
    });
  });
  return { joined: () => expect.poll(() => opened > 0 && joinedUpTo === opened).toBe(true) };
}

async function openSignedIn(page: Page, path: string): Promise<void> {
  const room = userRoom(page);
  await page.goto(path);
  await room.joined();
}

async function newMatchOfTheTeam(request: APIRequestContext, staff: string, teamId: string, title: string) {
  const kickoff = new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, "Z");
  return createEvent(request, staff, { title, event_date: kickoff, homeTeamId: teamId });
}

async function liveAlertMailsTo(request: APIRequestContext, staff: string, email: string) {
  const answer = await request.get(`/api/admin/outbox?to=${encodeURIComponent(email)}&kind=live_alert`, {
    headers: { Authorization: `Bearer ${staff}` },
  });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as OutboxPage).content.entries;
}

test("a followed team's match going live shows a toast in every open tab, and Watch now opens it", async ({
  page,
  request,
}) => {
  const viewer = await newViewer(request, "alerts");
  const room = userRoom(page);
  await signInOnPage(page, viewer, "/");
  // Following opens the league's page by its address: a socket of its own.
  const teamId = await followTheTeam(page, request);
  // Two tabs on other pages: the home page (reached by a click) and the live list.
  await page.getByRole("link", { name: "Home" }).first().click();
  await room.joined();
  const second = await page.context().newPage();
  await openSignedIn(second, "/live");

  const staff = await staffToken(request);
  const title = `${TEAM} vs Alert Rovers ${Date.now()}`;
  const match = await newMatchOfTheTeam(request, staff, teamId, title);
  await goLive(request, staff, match._id);

  for (const tab of [page, second]) {
    const toast = tab.locator("[data-sonner-toast]").filter({ hasText: `${title} is live now` });
    await expect(toast).toBeVisible();
    await expect(toast.getByRole("button", { name: "Watch now" })).toBeVisible();
  }
  await second
    .locator("[data-sonner-toast]")
    .filter({ hasText: title })
    .getByRole("button", { name: "Watch now" })
    .click();
  await expect(second).toHaveURL(new RegExp(`/events/${match._id}$`));
  await expect(second.getByRole("heading", { level: 1, name: title })).toBeVisible();
  // Nobody opted in: no mail.
  expect(await liveAlertMailsTo(request, staff, viewer.email)).toEqual([]);
});

test("a viewer who opts in on the account page gets one mail per match, and spoiler-free mode keeps the score out", async ({
  page,
  request,
}) => {
  const viewer = await newViewer(request, "alert-mail");
  await signInOnPage(page, viewer, "/");
  const teamId = await followTheTeam(page, request);
  await page.goto("/account/general");
  const optIn = page.getByRole("checkbox", { name: "E-mail me when a match I follow goes live" });
  await expect(optIn).not.toBeChecked();
  const kept = page.waitForResponse((r) => r.url().endsWith("/api/user/update_profile") && r.ok());
  await optIn.check();
  await kept;
  const room = userRoom(page);
  await page.reload();
  await expect(optIn).toBeChecked();
  // Spoiler-free, kept with the account, then to another page by a click.
  const spoilersKept = page.waitForResponse((r) => r.url().endsWith("/api/user/update_profile") && r.ok());
  await page.getByRole("checkbox", { name: "Spoiler-free mode" }).check();
  await spoilersKept;
  await page.getByRole("link", { name: "Touchline – homepage" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/");
  await room.joined();

  const staff = await staffToken(request);
  const stamp = Date.now();
  const match = await newMatchOfTheTeam(request, staff, teamId, `Rematch of ${TEAM} 3-1 Rovers ${stamp}`);
  await goLive(request, staff, match._id);

  const toast = page.locator("[data-sonner-toast]").filter({ hasText: `Rematch of ${TEAM} vs Rovers ${stamp}` });
  await expect(toast).toBeVisible();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "3-1" })).toHaveCount(0);
  await expect.poll(() => liveAlertMailsTo(request, staff, viewer.email).then((mails) => mails.length)).toBe(1);
  const [mail] = await liveAlertMailsTo(request, staff, viewer.email);
  expect(mail.subject).toContain(`Rematch of ${TEAM} vs Rovers ${stamp}`);
  expect(mail.subject).not.toContain("3-1");
});
