// @vitest-environment node
import { describe, expect, it } from "vitest";
import { isResumable, mapContinueWatchingEntry, mapPlaybackPosition } from "@/entities/playback";
import { apiEvent } from "../support/fixtures";

describe("playback positions", () => {
  it("are worth resuming from ten seconds in until 95 % of the video", () => {
    expect(isResumable(9.9, 100)).toBe(false);
    expect(isResumable(10, 100)).toBe(true);
    expect(isResumable(94.9, 100)).toBe(true);
    expect(isResumable(95, 100)).toBe(false);
  });

  it("map from the API with the video and the share watched", () => {
    const updated = "2026-11-27T20:00:00Z";
    expect(mapPlaybackPosition({ video_id: "a".repeat(24), position: 12, duration: 60, updated })).toEqual({
      videoId: "a".repeat(24),
      position: 12,
      duration: 60,
      updatedAt: new Date(updated),
    });
    const video = apiEvent({ status: "archived" });
    const item = mapContinueWatchingEntry({ video, video_id: video._id, position: 1350, duration: 5400, updated });
    expect(item.event.id).toBe(video._id);
    expect(item.progress).toBe(0.25);
    const past = mapContinueWatchingEntry({ video, video_id: video._id, position: 70, duration: 60, updated });
    expect(past.progress).toBe(1);
  });
});
