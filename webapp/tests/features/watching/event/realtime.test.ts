// @vitest-environment node
import { describe, expect, it, vi } from "vitest";
import { mapEvent } from "@/entities/event";
import {
  applyUpdateEvent,
  eventPageReducer,
  initialEventPageState,
  purchaseConcerns,
  reloadUntilUnlocked,
  withEventUrlChange,
  type EventPageState,
} from "@/features/watching/event/realtime";
import { apiEvent } from "../../../support/fixtures";

const upcoming = () =>
  mapEvent(
    apiEvent({
      status: "upcoming",
      event_date: "2026-12-01T18:00:00Z",
      gameStartDate: null,
      content: { ...apiEvent().content, HLSStream: null },
    }),
    { realKickoff: true, teamsShortName: false, leaguesView: false, genderClassification: false },
  );

describe("the event page's state", () => {
  it("raises the starting-soon flag when kick-off time passes, once", () => {
    const soon = eventPageReducer(initialEventPageState, { type: "kickoff-passed" });
    expect(soon.startingSoon).toBe(true);
    expect(eventPageReducer(soon, { type: "kickoff-passed" })).toBe(soon);
  });

  it("clears the starting-soon flag and the stream error on event-url-change (spec §4)", () => {
    const before: EventPageState = {
      ...initialEventPageState,
      startingSoon: true,
      streamError: new Error("gone"),
    };
    const after = eventPageReducer(before, { type: "event-url-change" });
    expect(after.startingSoon).toBe(false);
    expect(after.streamError).toBeNull();
  });

  it("starts the player afresh when the reloaded event plays the same stream, and not for a new one", () => {
    const same = eventPageReducer(initialEventPageState, { type: "stream-reloaded", sameStream: true });
    expect(same.playerResets).toBe(1);
    // A new stream resets the player by itself: no extra start.
    const other = eventPageReducer(same, { type: "stream-reloaded", sameStream: false });
    expect(other.playerResets).toBe(1);
  });

  it("keeps the failure of a stream reload until the next stream arrives", () => {
    const failed = eventPageReducer(initialEventPageState, { type: "stream-failed", error: "offline" });
    expect(failed.streamError).toBe("offline");
    expect(eventPageReducer(failed, { type: "stream-reloaded", sameStream: false }).streamError).toBeNull();
  });

  it.each([
    ["init", "processing"],
    ["in progress", "processing"],
    ["success", "completed"],
    ["error", "failed"],
  ] as const)("tells a purchase in state %s as %s, until dismissed", (status, notice) => {
    const told = eventPageReducer(initialEventPageState, { type: "purchase-status", status });
    expect(told.purchase).toBe(notice);
    expect(eventPageReducer(told, { type: "purchase-notice-dismissed" }).purchase).toBeNull();
  });
});

describe("withEventUrlChange", () => {
  it("sets the status to live and keeps the viewer's own stream address until the reload", () => {
    const event = upcoming();
    const live = withEventUrlChange(event);
    expect(live.status).toBe("live");
    expect(live.isLive).toBe(true);
    // The message's address is the stored one, which plays for nobody: never put in.
    expect(live.streamUrl).toBeNull();
    expect(event.status).toBe("upcoming");
  });
});

describe("applyUpdateEvent", () => {
  const options = { realKickoff: true };

  it("changes only the fields the message names", () => {
    const event = upcoming();
    const updated = applyUpdateEvent(event, { eventId: event.id, title: "Derby day" }, options);
    expect(updated.title).toBe("Derby day");
    expect(updated.status).toBe("upcoming");
    expect(updated.startsAt).toEqual(event.startsAt);
    expect(updated.description).toBe(event.description);
  });

  it("makes a status change live and moves the kick-off to the real one", () => {
    const event = upcoming();
    const updated = applyUpdateEvent(
      event,
      { eventId: event.id, status: "live", gameStartDate: "2026-12-01T18:03:00Z" },
      options,
    );
    expect(updated.isLive).toBe(true);
    expect(updated.startsAt.toISOString()).toBe("2026-12-01T18:03:00.000Z");
  });

  it("uses the scheduled date when the real kick-off is not shown", () => {
    const event = upcoming();
    const updated = applyUpdateEvent(
      event,
      { eventId: event.id, event_date: "2026-12-02T20:00:00Z", gameStartDate: "2026-12-02T20:02:00Z" },
      { realKickoff: false },
    );
    expect(updated.startsAt.toISOString()).toBe("2026-12-02T20:00:00.000Z");
  });

  it("gives an emptied title its default and never takes a stream address from the message", () => {
    const event = upcoming();
    const updated = applyUpdateEvent(
      event,
      { eventId: event.id, title: "", content: { HLSStream: "/media/live/football.m3u8", PosterH: "/p.svg" } },
      options,
    );
    expect(updated.title).toBe("NO TITLE");
    expect(updated.posterUrl).toBe("/p.svg");
    expect(updated.streamUrl).toBeNull();
  });
});

describe("applyUpdateEvent and the live feed", () => {
  const options = { realKickoff: false };
  const live = () => mapEvent(apiEvent({ status: "live" }));

  it("marks the live feed reconnecting or interrupted as the message says", () => {
    const event = live();
    expect(event.liveFeed).toBeNull();
    expect(applyUpdateEvent(event, { eventId: event.id, liveFeed: "reconnecting" }, options).liveFeed).toBe(
      "reconnecting",
    );
    expect(applyUpdateEvent(event, { eventId: event.id, liveFeed: "interrupted" }, options).liveFeed).toBe(
      "interrupted",
    );
  });

  it("clears the live feed when the message says it is back (null)", () => {
    const interrupted = mapEvent(apiEvent({ status: "live", liveFeed: "interrupted" }));
    const back = applyUpdateEvent(interrupted, { eventId: interrupted.id, liveFeed: null }, options);
    expect(back.liveFeed).toBeNull();
    expect(back.isLive).toBe(true);
  });

  it("leaves the live feed as it is when the message does not name it", () => {
    const interrupted = mapEvent(apiEvent({ status: "live", liveFeed: "interrupted" }));
    const renamed = applyUpdateEvent(interrupted, { eventId: interrupted.id, title: "Derby day" }, options);
    expect(renamed.liveFeed).toBe("interrupted");
  });
});

describe("purchaseConcerns", () => {
  it("is this event's purchase when it names the event or a product that unlocks it", () => {
    expect(purchaseConcerns({ eventId: "e1", productId: "p9" }, "e1", [])).toBe(true);
    expect(purchaseConcerns({ productId: "p2" }, "e1", ["p1", "p2"])).toBe(true);
    expect(purchaseConcerns({ eventId: "e2", productId: "p9" }, "e1", ["p1"])).toBe(false);
  });
});

describe("unlocking the page after a purchase", () => {
  const noWait = () => Promise.resolve();

  it("reloads once when the first answer is unlocked", async () => {
    const reload = vi.fn(() => Promise.resolve());
    await expect(reloadUntilUnlocked(reload, () => true, { wait: noWait })).resolves.toBe(true);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it("looks again, after each wait, while the answer still reads locked (a cached one)", async () => {
    let answers = 0;
    const waits: number[] = [];
    const unlocked = await reloadUntilUnlocked(
      async () => {
        answers += 1;
      },
      () => answers >= 3,
      { delays: [1_000, 2_000, 4_000], wait: async (ms) => void waits.push(ms) },
    );
    expect(unlocked).toBe(true);
    expect(answers).toBe(3);
    expect(waits).toEqual([1_000, 2_000]);
  });

  it("gives up after the last wait, and a failed reload counts as a look", async () => {
    const reload = vi.fn(() => Promise.reject(new Error("offline")));
    const unlocked = await reloadUntilUnlocked(reload, () => false, { delays: [1, 2], wait: noWait });
    expect(unlocked).toBe(false);
    expect(reload).toHaveBeenCalledTimes(3);
  });

  it("stops when cancelled (the page went, or a newer purchase took over)", async () => {
    let cancelled = false;
    const reload = vi.fn(async () => {
      cancelled = true;
    });
    const unlocked = await reloadUntilUnlocked(reload, () => false, { wait: noWait, cancelled: () => cancelled });
    expect(unlocked).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
