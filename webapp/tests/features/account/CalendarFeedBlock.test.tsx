import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { CalendarFeedBlock } from "@/features/account/pages/CalendarFeedBlock";
import { renderWithApp, setUpI18n } from "../../ui/renderWithApp";
import { failure, ok, signIn, signOut, stubApi } from "./accountTestKit";

beforeAll(setUpI18n);
afterEach(() => {
  signOut();
  vi.unstubAllGlobals();
});

const FEED = "http://127.0.0.1:8080/api/calendar/cal_0123456789abcdefghijklmnopqrstuv.ics";

/** The button once the feed's state is known (it waits, disabled, until then). */
async function makeLinkButton() {
  const button = await screen.findByRole("button", { name: "Make a calendar link" });
  await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
  return button;
}

function renderBlock() {
  return renderWithApp(<CalendarFeedBlock />, {
    url: "/account/general",
    path: "/account/general",
    handle: { name: "account-general", layout: "account" },
  });
}

describe("the account's calendar link", () => {
  it("is made on request and shown once, with the ways to add it to a calendar app", async () => {
    signIn();
    const api = stubApi({
      "GET /api/user/calendar_feed": () => ok({ active: false, created: null }),
      "POST /api/user/calendar_feed": () => ok({ url: FEED, created: "2026-11-30T07:00:00Z" }),
    });
    renderBlock();
    const user = userEvent.setup();
    await user.click(await makeLinkButton());

    expect(((await screen.findByLabelText("Your calendar link")) as HTMLInputElement).value).toBe(FEED);
    expect(screen.getByText(/it is shown only this once/)).toBeTruthy();
    expect(screen.getByRole("link", { name: "Open in Apple Calendar" }).getAttribute("href")).toBe(
      FEED.replace("http:", "webcal:"),
    );
    expect(screen.getByRole("link", { name: "Add to Google Calendar" }).getAttribute("href")).toBe(
      `https://calendar.google.com/calendar/r?cid=${encodeURIComponent(FEED.replace("http:", "webcal:"))}`,
    );
    // Another press makes another link: the button says the old one goes.
    expect(screen.getByRole("button", { name: "Make a new link" })).toBeTruthy();
    expect(api.callsTo("POST /api/user/calendar_feed")).toHaveLength(1);
  });

  it("says when a link is on without showing it again, and turns it off", async () => {
    signIn();
    const api = stubApi({
      "GET /api/user/calendar_feed": () => ok({ active: true, created: "2026-11-01T07:00:00Z" }),
      "POST /api/user/calendar_feed/revoke": () => ok(null),
    });
    renderBlock();
    const user = userEvent.setup();
    expect(await screen.findByText("Your calendar link is on.")).toBeTruthy();
    expect(screen.queryByLabelText("Your calendar link")).toBeNull();
    await user.click(screen.getByRole("button", { name: "Turn the link off" }));

    expect(await screen.findByRole("button", { name: "Make a calendar link" })).toBeTruthy();
    expect(screen.queryByText("Your calendar link is on.")).toBeNull();
    expect(api.callsTo("POST /api/user/calendar_feed/revoke")).toHaveLength(1);
  });

  it("says what went wrong when the link cannot be made", async () => {
    signIn();
    stubApi({
      "GET /api/user/calendar_feed": () => ok({ active: false, created: null }),
      "POST /api/user/calendar_feed": () => failure(503, "database_unavailable", "Try again in a moment."),
    });
    renderBlock();
    const user = userEvent.setup();
    await user.click(await makeLinkButton());
    expect(await screen.findByRole("alert")).toBeTruthy();
    expect(screen.queryByLabelText("Your calendar link")).toBeNull();
  });
});
