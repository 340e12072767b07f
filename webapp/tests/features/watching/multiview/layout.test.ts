// @vitest-environment node
import { describe, expect, it } from "vitest";
import {
  addTile,
  isEventId,
  largeTileIndex,
  MAX_TILES,
  parseEventIds,
  planGrid,
  removeTile,
  withEventIds,
} from "@/features/watching/multiview/layout";

const A = "d2aefc184837b3fb7057f13a";
const B = "ce31d8da7950a1cab57cf5c4";
const C = "566bdb368690bd3ae1fd9ebf";
const D = "fb5337bd0de4cb1b9b3600d3";
const E = "435f74bc9905932e52365cb4";

describe("event ids", () => {
  it("are the API's 24 lower-case hexadecimal digits", () => {
    expect(isEventId(A)).toBe(true);
    expect(isEventId(A.slice(1))).toBe(false);
    expect(isEventId(`${A}0`)).toBe(false);
    expect(isEventId(A.toUpperCase())).toBe(false);
    expect(isEventId("zzaefc184837b3fb7057f13a")).toBe(false);
    expect(isEventId("")).toBe(false);
  });
});

describe("?events=", () => {
  it("names the events in its order", () => {
    expect(parseEventIds(`${A},${B},${C}`)).toEqual([A, B, C]);
  });

  it("is empty when missing or blank", () => {
    expect(parseEventIds(null)).toEqual([]);
    expect(parseEventIds(undefined)).toEqual([]);
    expect(parseEventIds("")).toEqual([]);
    expect(parseEventIds(",,")).toEqual([]);
  });

  it("drops what is no event id, and keeps what is around it", () => {
    expect(parseEventIds(`nope,${A},../admin,${B.slice(2)},${B}`)).toEqual([A, B]);
  });

  it("counts each event once, where it first appears", () => {
    expect(parseEventIds(`${A},${B},${A},${B},${C}`)).toEqual([A, B, C]);
  });

  it("keeps the first four events only", () => {
    expect(parseEventIds([A, B, C, D, E].join(","))).toEqual([A, B, C, D]);
    expect(MAX_TILES).toBe(4);
  });

  it("reads ids with spaces around them or in capitals as the ids they are", () => {
    expect(parseEventIds(` ${A} , ${B.toUpperCase()}`)).toEqual([A, B]);
  });

  it("is written with plain commas, the other parameters kept", () => {
    expect(withEventIds("", [A, B])).toBe(`?events=${A},${B}`);
    expect(withEventIds("?events=old&lang=de", [C])).toBe(`?events=${C}&lang=de`);
    expect(withEventIds(`?events=${A}`, [])).toBe("");
    expect(withEventIds(`?x=1&events=${A}`, [])).toBe("?x=1");
  });

  it("reads back what it writes", () => {
    const search = withEventIds("?x=1", [A, B, C]);
    expect(parseEventIds(new URLSearchParams(search).get("events"))).toEqual([A, B, C]);
  });
});

describe("adding and removing tiles", () => {
  it("adds at the end", () => {
    expect(addTile([A], B)).toEqual([A, B]);
  });

  it("does not add an event twice, nor a fifth, nor what is no event id", () => {
    const two = [A, B];
    expect(addTile(two, A)).toBe(two);
    const four = [A, B, C, D];
    expect(addTile(four, E)).toBe(four);
    expect(addTile(two, "not-an-id")).toBe(two);
  });

  it("removes one tile and keeps the others' order", () => {
    expect(removeTile([A, B, C], B)).toEqual([A, C]);
    const two = [A, B];
    expect(removeTile(two, C)).toBe(two);
  });
});

describe("the grid", () => {
  it("gives one tile the whole grid, and none nothing", () => {
    expect(planGrid(1, "grid").tiles).toEqual([{ column: 1, row: 1, columnSpan: 1, rowSpan: 1 }]);
    expect(planGrid(1, "focus").large).toBeNull();
    expect(planGrid(0, "grid").tiles).toEqual([]);
  });

  it("puts two tiles side by side, three and four in a 2×2 grid, row by row", () => {
    const two = planGrid(2, "grid");
    expect(two.rows).toBe(1);
    expect(two.tiles.map(({ column, row }) => [column, row])).toEqual([
      [1, 1],
      [2, 1],
    ]);
    const four = planGrid(4, "grid");
    expect(four.columns).toBe("repeat(2, minmax(0, 1fr))");
    expect(four.rows).toBe(2);
    expect(four.large).toBeNull();
    expect(four.tiles.map(({ column, row }) => [column, row])).toEqual([
      [1, 1],
      [2, 1],
      [1, 2],
      [2, 2],
    ]);
    expect(planGrid(3, "grid").tiles).toHaveLength(3);
    expect(four.tiles.every((tile) => tile.columnSpan === 1 && tile.rowSpan === 1)).toBe(true);
  });

  it("keeps the 2×2 grid 16:9 overall, and two tiles side by side twice as wide", () => {
    expect(planGrid(4, "grid").aspect).toBeCloseTo(16 / 9);
    expect(planGrid(2, "grid").aspect).toBeCloseTo(32 / 9);
  });

  it("in focus layout sets one tile large over every row, the others stacked beside it", () => {
    const plan = planGrid(4, "focus", 0);
    expect(plan.large).toBe(0);
    expect(plan.rows).toBe(3);
    expect(plan.columns).toBe("minmax(0, 3fr) minmax(0, 1fr)");
    expect(plan.tiles).toEqual([
      { column: 1, row: 1, columnSpan: 1, rowSpan: 3 },
      { column: 2, row: 1, columnSpan: 1, rowSpan: 1 },
      { column: 2, row: 2, columnSpan: 1, rowSpan: 1 },
      { column: 2, row: 3, columnSpan: 1, rowSpan: 1 },
    ]);
    // Three small tiles a third as wide as the large one stack to its height: 4/3 of 16:9.
    expect(plan.aspect).toBeCloseTo((16 / 9) * (4 / 3));
  });

  it("makes any tile the large one, the others keeping their order beside it", () => {
    const plan = planGrid(4, "focus", 2);
    expect(plan.large).toBe(2);
    expect(plan.tiles[2]).toEqual({ column: 1, row: 1, columnSpan: 1, rowSpan: 3 });
    expect([0, 1, 3].map((index) => plan.tiles[index].row)).toEqual([1, 2, 3]);
    expect([0, 1, 3].every((index) => plan.tiles[index].column === 2)).toBe(true);
  });

  it("with three tiles in focus layout, puts two beside the large one", () => {
    const plan = planGrid(3, "focus", 1);
    expect(plan.rows).toBe(2);
    expect(plan.columns).toBe("minmax(0, 2fr) minmax(0, 1fr)");
    expect(plan.tiles[1]).toEqual({ column: 1, row: 1, columnSpan: 1, rowSpan: 2 });
  });

  it("clamps a large tile that is not there, and sets none apart for two tiles", () => {
    expect(planGrid(3, "focus", 7).large).toBe(2);
    expect(planGrid(3, "focus", -1).large).toBe(0);
    expect(planGrid(2, "focus", 1)).toEqual(planGrid(2, "grid"));
  });

  it("never plans more than four tiles", () => {
    expect(planGrid(6, "grid").tiles).toHaveLength(4);
  });
});

describe("the large tile", () => {
  it("is the one the sound comes from, else the first", () => {
    expect(largeTileIndex([A, B, C], C)).toBe(2);
    expect(largeTileIndex([A, B, C], null)).toBe(0);
    expect(largeTileIndex([A, B, C], D)).toBe(0);
  });
});
