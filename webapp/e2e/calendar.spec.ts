import { expect, test } from "@playwright/test";
import { listEvents, newViewer, signInOnPage } from "./event-support";
import { TEAM, followTheTeam } from "./following-support";

// Calendars (issue 31 §4): a personal feed of what the viewer follows, made on the account page,
// and any upcoming event's own calendar file.

/** The VEVENTs of an iCalendar text: each one's properties by name (lines unfolded). */
function vevents(text: string): Record<string, string>[] {
  const lines = text.replace(/\r\n[ \t]/g, "").split(/\r\n/);
  const events: Record<string, string>[] = [];
  let current: Record<string, string> | null = null;
  for (const line of lines) {
    if (line === "BEGIN:VEVENT") current = {};
    else if (line === "END:VEVENT" && current) {
      events.push(current);
      current = null;
    } else if (current) {
      const [name, ...value] = line.split(":");
      current[name.split(";")[0]] = value.join(":");
    }
  }
  return events;
}

test("a calendar link made on the account page lists the upcoming matches of a followed team, and a new one ends it", async ({
  page,
  request,
}) => {
  const viewer = await newViewer(request, "calendar");
  await signInOnPage(page, viewer, "/");
  await followTheTeam(page, request);

  await page.goto("/account/general");
  await page.getByRole("button", { name: "Make a calendar link" }).click();
  const link = page.getByLabel("Your calendar link");
  await expect(link).toHaveValue(/\/api\/calendar\/.+\.ics$/);
  const url = await link.inputValue();
  await expect(page.getByRole("link", { name: "Open in Apple Calendar" })).toHaveAttribute("href", /^webcal:/);

  // What a calendar app reads: the team's upcoming matches, each linking to its page.
  const feed = await request.get(url);
  expect(feed.ok()).toBe(true);
  expect(feed.headers()["content-type"]).toContain("text/calendar");
  const entries = vevents(await feed.text());
  // The team's own matches ("Harbor City Mariners U21" is another team).
  const plays = new RegExp(`^${TEAM} vs |vs ${TEAM}$`);
  const upcoming = (await listEvents(request, { status: ["upcoming"] })).filter((event) => plays.test(event.title));
  expect(upcoming.length).toBeGreaterThan(0);
  for (const event of upcoming) {
    const entry = entries.find((candidate) => candidate.UID?.startsWith(event._id));
    expect(entry, event.title).toBeDefined();
    expect(entry!.URL).toContain(`/events/${event._id}`);
  }
  expect(entries.every((entry) => entry.SUMMARY !== undefined && entry.DTSTART !== undefined)).toBe(true);

  // A new link ends the old one.
  await page.getByRole("button", { name: "Make a new link" }).click();
  await expect(link).not.toHaveValue(url);
  expect((await request.get(url)).status()).toBe(404);
});

test("an upcoming event's page offers its calendar file", async ({ page, request }) => {
  const [event] = await listEvents(request, { status: ["upcoming"], media_type: ["event"] });
  await page.goto(`/events/${event._id}`);
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Add to calendar" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.ics$/);
  const entries = vevents(await (await request.get(`/api/event/calendar/${event._id}.ics`)).text());
  expect(entries).toHaveLength(1);
  expect(entries[0].UID).toContain(event._id);
});
