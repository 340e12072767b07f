// @vitest-environment node
import { describe, expect, it } from "vitest";
import { clipRangeProblem, mapUserClip } from "@/entities/clip";
import { apiEvent } from "../support/fixtures";

describe("mapUserClip", () => {
  it("reads its range in seconds, its parent event and its own signed stream", () => {
    const clip = mapUserClip(
      apiEvent({
        _id: "8b1c0a8e2b3d4c5e6f7a8ba4",
        title: "Mariners' opening goal",
        media_type: "user_clip",
        event_id: "5f1c0a8e2b3d4c5e6f7a8b9c",
        startTime: 754000,
        endTime: 772000,
        duration: 18,
        content: { ...apiEvent().content, HLSStream: "/media/vod/football/clip-754000-772000/index.m3u8?token=tok" },
      }),
    );
    expect(clip).toMatchObject({
      id: "8b1c0a8e2b3d4c5e6f7a8ba4",
      eventId: "5f1c0a8e2b3d4c5e6f7a8b9c",
      startSeconds: 754,
      endSeconds: 772,
      durationSeconds: 18,
      mediaType: "user_clip",
      streamUrl: "/media/vod/football/clip-754000-772000/index.m3u8?token=tok",
    });
  });
});

describe("clipRangeProblem", () => {
  it("needs both marks, the end after the start, and at most 10 minutes between them", () => {
    expect(clipRangeProblem(null, null)).toBe("no_start");
    expect(clipRangeProblem(10, null)).toBe("no_end");
    expect(clipRangeProblem(10, 10)).toBe("order");
    expect(clipRangeProblem(10, 611)).toBe("too_long");
    expect(clipRangeProblem(10, 610)).toBeNull();
  });
});
