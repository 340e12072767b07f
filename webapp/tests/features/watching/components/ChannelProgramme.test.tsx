import { afterEach, describe, expect, it, vi } from "vitest";
import { act, screen } from "@testing-library/react";
import { mapEvent } from "@/entities/event";
import { ChannelProgramme, NOW_TICK_MS } from "@/features/watching/components/ChannelProgramme";
import { apiEvent } from "../../../support/fixtures";
import { renderPage } from "../../../support/renderPage";
import { fakeServer, ok } from "../../../session/fakeServer";

const ID = "c1aefc184837b3fb7057f13a";
const OPTIONS = { realKickoff: true, teamsShortName: false, leaguesView: true, genderClassification: false };
const START = new Date("2026-11-28T18:59:40Z").getTime();

const channel = mapEvent(
  apiEvent({
    _id: ID,
    status: "channel",
    eventType: "channel",
    content: { ...apiEvent().content, EPG: `/api/event/epg/${ID}` },
  }),
  OPTIONS,
);

function serveGuide() {
  const slot = (n: number, title: string, from: string, to: string) => ({
    _id: `6a1c0a8e2b3d4c5e6f7a8b9${n}`,
    title,
    description: null,
    startTime: new Date(from).getTime(),
    endTime: new Date(to).getTime(),
    event_id: null,
  });
  return fakeServer({
    [`GET /event/epg/${ID}`]: () =>
      ok({
        channel: { _id: ID, title: "Touchline Sports 24" },
        entries: [
          slot(1, "Goals of the Week", "2026-11-28T18:00:00Z", "2026-11-28T19:00:00Z"),
          slot(2, "Touchline Tonight", "2026-11-28T19:00:00Z", "2026-11-28T20:00:00Z"),
        ],
      }),
  });
}

const slotOf = (title: string) => screen.getByText(title).closest("li")!;

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("ChannelProgramme", () => {
  it("moves the on-air mark to the next slot when its time comes, while the guide stays open", async () => {
    // Only the clock and the guide's tick are faked: the page's own timers (queries) run as usual.
    vi.useFakeTimers({ toFake: ["Date", "setInterval", "clearInterval"] });
    vi.setSystemTime(START);
    serveGuide();
    await renderPage(<ChannelProgramme channel={channel} />);

    await screen.findByText("Goals of the Week");
    expect(slotOf("Goals of the Week").getAttribute("aria-current")).toBe("time");
    expect(slotOf("Touchline Tonight").hasAttribute("aria-current")).toBe(false);

    await act(async () => vi.advanceTimersByTime(NOW_TICK_MS));

    expect(slotOf("Goals of the Week").hasAttribute("aria-current")).toBe(false);
    expect(slotOf("Touchline Tonight").getAttribute("aria-current")).toBe("time");
    expect(slotOf("Touchline Tonight").className).toContain("programme__slot--now");
  });

  it("says so when the channel has no programme", async () => {
    fakeServer({
      [`GET /event/epg/${ID}`]: () => ok({ channel: { _id: ID, title: "Touchline Sports 24" }, entries: [] }),
    });
    await renderPage(<ChannelProgramme channel={channel} />);
    expect(await screen.findByText("No programme is available for this channel.")).toBeTruthy();
  });
});
