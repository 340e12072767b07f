// @vitest-environment node
import { describe, expect, it } from "vitest";
import { mapEvent, type EventMapOptions } from "@/entities/event";
import { spoilerFreeEvent, withoutScore } from "@/entities/spoilers";
import { apiEvent } from "../support/fixtures";

const OPTIONS: EventMapOptions = {
  realKickoff: false,
  teamsShortName: false,
  leaguesView: true,
  genderClassification: false,
};

describe("a score in a text", () => {
  it.each([
    ["Highlights: Harbor City Mariners 3-1 Northfield Rovers", "Highlights: Harbor City Mariners vs Northfield Rovers"],
    ["Ashford Town 2 – 2 Port Sable", "Ashford Town vs Port Sable"],
    ["Ashford Town 10—9 Port Sable", "Ashford Town vs Port Sable"],
    ["Final: 101-99", "Final: vs"],
    ["3-1 at the Harbor", "vs at the Harbor"],
    ["Won 2-0, lost 1-3", "Won vs, lost vs"],
  ])("%s becomes %s", (text, expected) => {
    expect(withoutScore(text)).toBe(expected);
  });

  it.each([
    "Kick-off 2026-11-30 at 15:00",
    "Highlight (1:05)",
    "The U-21 final",
    "Key moments: Harbor City Mariners vs Northfield Rovers",
    "Round 1234-5678",
  ])("leaves %s alone", (text) => {
    expect(withoutScore(text)).toBe(text);
  });
});

describe("an event in spoiler-free mode", () => {
  const match = mapEvent(
    apiEvent({
      title: "Ashford Town 3-1 Port Sable Albion",
      description: "Full time: Ashford Town 3 - 1 Port Sable Albion.",
      metaTitle: "Cup final 2-2",
      status: "archived",
    }),
    OPTIONS,
  );

  it("carries no score in any text it shows", () => {
    const seen = spoilerFreeEvent({ ...match, durationSeconds: 6_300 });
    expect(seen.title).toBe("Ashford Town vs Port Sable Albion");
    expect(seen.description).toBe("Full time: Ashford Town vs Port Sable Albion.");
    expect(seen.metaTitle).toBe("Cup final vs");
    expect(JSON.stringify(seen)).not.toMatch(/\b3 ?- ?1\b|\b2-2\b/);
  });

  it("does not say how long a match went, but a clip keeps its length", () => {
    expect(spoilerFreeEvent({ ...match, durationSeconds: 6_300 }).durationSeconds).toBeNull();
    expect(spoilerFreeEvent({ ...match, isClip: true, durationSeconds: 95 }).durationSeconds).toBe(95);
  });

  it("keeps everything else as it was", () => {
    const { title, description, metaTitle, durationSeconds, ...rest } = spoilerFreeEvent(match);
    const { title: t0, description: d0, metaTitle: m0, durationSeconds: s0, ...before } = match;
    expect([title, description, metaTitle, durationSeconds, t0, d0, m0, s0]).toHaveLength(8);
    expect(rest).toEqual(before);
  });

  it("leaves an event without text to change as it was", () => {
    const plain = { ...match, title: "Ashford Town vs Port Sable Albion", description: null, metaTitle: null };
    expect(spoilerFreeEvent(plain)).toEqual({ ...plain, durationSeconds: null });
  });
});
