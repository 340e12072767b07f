import { describe, expect, it } from "vitest";
import { screen } from "@testing-library/react";
import { mapEvent } from "@/entities/event";
import { EventCard } from "@/ui/catalog/EventCard";
import { apiEvent } from "../../support/fixtures";
import { renderPage } from "../../support/renderPage";

const OPTIONS = { realKickoff: true, teamsShortName: false, leaguesView: true, genderClassification: false };
const NOW = new Date("2026-11-23T12:00:00Z");

describe("EventCard", () => {
  it("shows a LIVE badge, both teams with logos and the league, and links to the event page", async () => {
    const event = mapEvent(apiEvent(), OPTIONS);
    await renderPage(<EventCard event={event} now={NOW} timeZone="UTC" />);

    const link = await screen.findByRole("link", { name: /Ashford Town vs Port Sable Albion/ });
    expect(link.getAttribute("href")).toBe("/events/d2aefc184837b3fb7057f13a");
    expect(link).toHaveProperty(
      "textContent",
      expect.stringMatching(/^Live.*Ashford Town vs Port Sable Albion.*Today, 3:58 PM$/),
    );
    expect(screen.getByText("Live").className).toContain("event-card__badge--live");
    expect(screen.getByText("Northern Premier Division•Football")).toBeTruthy();

    const logos = link.querySelectorAll<HTMLImageElement>(".event-card__logo");
    expect([...logos].map((img) => img.getAttribute("src"))).toEqual([
      "/media/logos/ashford-town.svg",
      "/media/logos/port-sable-albion.svg",
    ]);
    expect(screen.getByText("Ashford Town")).toBeTruthy();
    expect(screen.getByText("Port Sable Albion")).toBeTruthy();
  });

  it("leads a channel's card to its channel page, where it plays, and says it is always on", async () => {
    const event = mapEvent(
      apiEvent({ status: "channel", eventType: "channel", title: "Touchline Sports 24" }),
      OPTIONS,
    );
    await renderPage(<EventCard event={event} now={NOW} timeZone="UTC" />);

    const link = await screen.findByRole("link", { name: /Touchline Sports 24/ });
    expect(link.getAttribute("href")).toBe("/channels/d2aefc184837b3fb7057f13a");
    expect(link.querySelector(".event-card__badge")?.textContent).toBe("Channel");
  });

  it("lets the server's texts (title, league line, team names) pick their own direction, for right-to-left pages", async () => {
    const event = mapEvent(apiEvent({ title: "הפועל חיפה vs Ashford Town" }), OPTIONS);
    await renderPage(<EventCard event={event} now={NOW} timeZone="UTC" />);

    expect((await screen.findByRole("heading", { name: "הפועל חיפה vs Ashford Town" })).getAttribute("dir")).toBe(
      "auto",
    );
    expect(screen.getByText("Northern Premier Division•Football").getAttribute("dir")).toBe("auto");
    expect(screen.getByText("Port Sable Albion").getAttribute("dir")).toBe("auto");
  });

  it("shows the kick-off in the given time zone and lazy-loads a sized poster", async () => {
    const event = mapEvent(apiEvent({ status: "upcoming", gameStartDate: "2026-11-24T01:30:00Z" }), OPTIONS);
    await renderPage(<EventCard event={event} now={NOW} timeZone="America/New_York" />);

    const time = await screen.findByText("Today, 8:30 PM");
    expect(time.getAttribute("datetime")).toBe("2026-11-24T01:30:00.000Z");
    expect(screen.queryByText("Live")).toBeNull();
    const poster = document.querySelector<HTMLImageElement>(".event-card__poster")!;
    expect(poster.getAttribute("loading")).toBe("lazy");
    expect([poster.getAttribute("width"), poster.getAttribute("height")]).toEqual(["640", "360"]);
  });

  it("has no team row when the event has no teams, and a placeholder poster when there is none", async () => {
    const event = mapEvent(
      apiEvent({
        gameType: "other",
        content: { HLSStream: null, PanoStream: null, PosterH: null, MezzanineVideo: null, EPG: null },
      }),
      OPTIONS,
    );
    await renderPage(<EventCard event={event} now={NOW} timeZone="UTC" />);

    await screen.findByRole("link");
    expect(document.querySelector(".event-card__teams")).toBeNull();
    expect(document.querySelector(".event-card__poster")!.getAttribute("data-placeholder")).toBe("banner");
  });

  it("hints at the price of a locked event and links highlights with their media type", async () => {
    const clip = mapEvent(
      apiEvent({
        _id: "6191dd3e9543ec5980ab6fa6",
        media_type: "highlight",
        status: "vod",
        availableForUser: false,
        commerceType: ["ppv"],
        commerceCoverage: ["ppv"],
        duration: 62,
      }),
      OPTIONS,
    );
    await renderPage(<EventCard event={clip} now={NOW} timeZone="UTC" />);

    const link = await screen.findByRole("link");
    expect(link.getAttribute("href")).toBe("/events/6191dd3e9543ec5980ab6fa6?media_type=highlight");
    expect(screen.getByText("Pay-per-view")).toBeTruthy();
    expect(screen.getByText("1:02")).toBeTruthy();
  });

  it("keeps the locale prefix in its link on localized pages", async () => {
    const event = mapEvent(apiEvent(), OPTIONS);
    await renderPage(<EventCard event={event} now={NOW} timeZone="UTC" />, { path: "/de/home", route: "/de/home" });
    expect((await screen.findByRole("link")).getAttribute("href")).toBe("/de/events/d2aefc184837b3fb7057f13a");
  });
});
