// @vitest-environment node
import { describe, expect, it } from "vitest";
import { BUDGET_OF_TOP, levelCapFor } from "@/features/watching/multiview/bandwidth";

// The seeded live ladder (234p, 360p, 720p), and a wider one of the kind a real encoder makes.
const SEEDED = [117_312, 153_408, 271_472];
const WIDE = [400_000, 800_000, 1_800_000, 3_000_000, 6_000_000];

describe("a tile's share of the bandwidth", () => {
  it("lets a tile alone play anything (its size still caps it)", () => {
    expect(levelCapFor(WIDE, 1)).toBe(4);
    expect(levelCapFor(SEEDED, 1)).toBe(2);
  });

  it("caps each of four tiles to the best rendition within a quarter of the budget", () => {
    // 6 Mbit/s × 1.5 / 4 = 2.25 Mbit/s: the 1.8 Mbit/s rendition.
    expect(levelCapFor(WIDE, 4)).toBe(2);
    // Two tiles: 4.5 Mbit/s each, the 3 Mbit/s rendition.
    expect(levelCapFor(WIDE, 2)).toBe(3);
  });

  it("keeps four tiles together within the budget whenever the ladder allows it", () => {
    for (const tiles of [2, 3, 4]) {
      const total = WIDE[levelCapFor(WIDE, tiles)] * tiles;
      expect(total).toBeLessThanOrEqual(Math.max(...WIDE) * BUDGET_OF_TOP);
    }
  });

  it("never goes below the lowest rendition, even when that alone is over the share", () => {
    // 271 kbit/s × 1.5 / 4 ≈ 102 kbit/s, less than the lowest rendition (117 kbit/s).
    expect(levelCapFor(SEEDED, 4)).toBe(0);
    expect(levelCapFor(SEEDED, 3)).toBe(0);
    expect(levelCapFor(SEEDED, 2)).toBe(1);
  });

  it("has no rendition to cap to without renditions", () => {
    expect(levelCapFor([], 4)).toBe(-1);
  });

  it("reads the ladder in any order hls.js gives it", () => {
    expect(levelCapFor([271_472, 117_312, 153_408], 2)).toBe(2);
  });
});
