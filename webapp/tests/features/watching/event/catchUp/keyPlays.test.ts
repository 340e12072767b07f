// @vitest-environment node
import { describe, expect, it } from "vitest";
import { mapCatchUp, type KeyPlay } from "@/features/watching/event/catchUp/catchUpQuery";
import { playingKeyPlay, visibleKeyPlays } from "@/features/watching/event/catchUp/keyPlays";

const play = (id: string, start: number, reelOffset: number): KeyPlay => ({
  id,
  subtype: "goal",
  title: `Goal ${id}`,
  start,
  end: start + 15,
  reelOffset,
});
const PLAYS = [play("a", 120, 0), play("b", 360, 15), play("c", 660, 30), play("d", 1020, 45)];

describe("the key plays a viewer sees", () => {
  it("are all of them without spoiler-free mode", () => {
    expect(visibleKeyPlays(PLAYS, { scoresHidden: false, played: null, reelTime: null })).toEqual(PLAYS);
  });

  it("stop at the playhead of the event in spoiler-free mode", () => {
    const shown = visibleKeyPlays(PLAYS, { scoresHidden: true, played: 400, reelTime: null });
    expect(shown.map((p) => p.id)).toEqual(["a", "b"]);
    expect(visibleKeyPlays(PLAYS, { scoresHidden: true, played: null, reelTime: null })).toEqual([]);
  });

  it("stop at the playhead of the catch-up while it plays, in spoiler-free mode", () => {
    const shown = visibleKeyPlays(PLAYS, { scoresHidden: true, played: 1200, reelTime: 16 });
    expect(shown.map((p) => p.id)).toEqual(["a", "b"]);
  });
});

describe("the key play the catch-up shows", () => {
  it("is the last one begun", () => {
    expect(playingKeyPlay(PLAYS, 0)?.id).toBe("a");
    expect(playingKeyPlay(PLAYS, 31)?.id).toBe("c");
    expect(playingKeyPlay(PLAYS, 300)?.id).toBe("d");
  });

  it("is none before the catch-up plays", () => {
    expect(playingKeyPlay(PLAYS, null)).toBeNull();
  });
});

describe("a catch-up answer", () => {
  it("is read in seconds", () => {
    const mapped = mapCatchUp({
      eventId: "5f1c0a8e2b3d4c5e6f7a8b9c",
      url: "/media/vod/a/keys-1.a/index.m3u8?token=1.x",
      liveEdgeMs: 1_500_000,
      keyPlays: [{ _id: "t1", subtype: "goal", title: "Goal", startTime: 702_000, endTime: 717_000, reelOffset: 0 }],
    });
    expect(mapped).toEqual({
      url: "/media/vod/a/keys-1.a/index.m3u8?token=1.x",
      liveEdge: 1500,
      keyPlays: [{ id: "t1", subtype: "goal", title: "Goal", start: 702, end: 717, reelOffset: 0 }],
    });
  });
});
