// @vitest-environment node
import { describe, expect, it } from "vitest";
import { canEditTag, mapTag, timelineOrder, type ApiTag } from "@/entities/tag";

const apiTag = (patch: Partial<ApiTag> = {}): ApiTag => ({
  _id: "2a1c0a8e2b3d4c5e6f7a8bd0",
  targetId: "5f1c0a8e2b3d4c5e6f7a8b9c",
  userId: "9a1c0a8e2b3d4c5e6f7a8ba2",
  title: "Goal",
  startTime: 754000,
  endTime: 772000,
  timePTS: null,
  type: "game",
  subtype: "goal",
  global: false,
  playerNumber: "9",
  playerColor: "#0b3d91",
  teamId: "6a1c0a8e2b3d4c5e6f7a8b9d",
  videoType: "vod",
  streamName: "hd",
  mode: "sync",
  added: "2026-11-22T08:31:00Z",
  updated: "2026-11-22T08:31:00Z",
  ...patch,
});

describe("mapTag", () => {
  it("turns the answer's milliseconds into stream seconds", () => {
    const tag = mapTag(apiTag());
    expect(tag).toMatchObject({ id: "2a1c0a8e2b3d4c5e6f7a8bd0", title: "Goal", time: 754, endTime: 772 });
    expect(tag.ownerId).toBe("9a1c0a8e2b3d4c5e6f7a8ba2");
  });

  it("falls back to timePTS without a start, and to 'NO TITLE' without a title (spec §3)", () => {
    const tag = mapTag(apiTag({ startTime: null, endTime: null, timePTS: 61500, title: "" }));
    expect(tag.time).toBe(61.5);
    expect(tag.endTime).toBeNull();
    expect(tag.title).toBe("NO TITLE");
  });
});

describe("timelineOrder", () => {
  it("orders by time, then title, each tag once", () => {
    const tags = [
      mapTag(apiTag({ _id: "b", startTime: 9000, title: "Save" })),
      mapTag(apiTag({ _id: "a", startTime: 1000, title: "Kick-off" })),
      mapTag(apiTag({ _id: "c", startTime: 9000, title: "Corner" })),
      mapTag(apiTag({ _id: "a", startTime: 1000, title: "Kick-off" })),
    ];
    expect(timelineOrder(tags).map((tag) => tag.id)).toEqual(["a", "c", "b"]);
  });
});

describe("canEditTag", () => {
  const viewer = { id: "me", canCreateGlobalTag: false };

  it("lets viewers change their own tags only", () => {
    expect(canEditTag({ ownerId: "me", global: false }, viewer)).toBe(true);
    expect(canEditTag({ ownerId: "someone", global: false }, viewer)).toBe(false);
    expect(canEditTag({ ownerId: null, global: true }, viewer)).toBe(false);
    expect(canEditTag({ ownerId: "me", global: false }, null)).toBe(false);
  });

  it("lets only viewers with the global-tag right change their global tags", () => {
    expect(canEditTag({ ownerId: "me", global: true }, viewer)).toBe(false);
    expect(canEditTag({ ownerId: "me", global: true }, { ...viewer, canCreateGlobalTag: true })).toBe(true);
  });
});
