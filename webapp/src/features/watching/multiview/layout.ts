/*
 * Multiview's arrangement, pure: which events are on screen (as `?events=` keeps them, so a set
 * can be shared), and how the tiles share the grid: 2×2, or one large tile beside the others.
 */

/** At most this many tiles play at once. */
export const MAX_TILES = 4;
/** Multiview is for watching several events: fewer than this and the picker stays open. */
export const MIN_TILES = 2;
/** The query parameter that names the events: `?events=ID1,ID2`. */
export const EVENTS_PARAM = "events";

/** "grid": 2×2 (two columns); "focus": one large tile, the others stacked beside it. */
export type MultiviewLayout = "grid" | "focus";

/** An event id as the API writes them (openapi `Id`): 24 lower-case hexadecimal digits. */
const EVENT_ID = /^[0-9a-f]{24}$/;

export function isEventId(value: string): boolean {
  return EVENT_ID.test(value);
}

/**
 * The events `?events=` names, in its order: ids that are not event ids are dropped, each event
 * counts once, and only the first MAX_TILES are kept. Commas may come escaped (%2C) or not.
 */
export function parseEventIds(raw: string | null | undefined): string[] {
  if (!raw) return [];
  const ids: string[] = [];
  for (const part of raw.split(",")) {
    const id = part.trim().toLowerCase();
    if (isEventId(id) && !ids.includes(id)) ids.push(id);
    if (ids.length === MAX_TILES) break;
  }
  return ids;
}

/**
 * `search` (a location's query, with or without its "?") with `?events=` naming `ids`, the other
 * parameters kept; without the parameter when there are none. The commas stay commas (ids need no
 * escaping), so the address reads as it is shared.
 */
export function withEventIds(search: string, ids: readonly string[]): string {
  const others = new URLSearchParams(search);
  others.delete(EVENTS_PARAM);
  const parts = [ids.length ? `${EVENTS_PARAM}=${ids.join(",")}` : "", others.toString()].filter(Boolean);
  return parts.length ? `?${parts.join("&")}` : "";
}

/** `ids` with `id` added at the end: unchanged when it is there already, is no event id, or multiview is full. */
export function addTile(ids: readonly string[], id: string): readonly string[] {
  if (!isEventId(id) || ids.includes(id) || ids.length >= MAX_TILES) return ids;
  return [...ids, id];
}

export function removeTile(ids: readonly string[], id: string): readonly string[] {
  return ids.includes(id) ? ids.filter((other) => other !== id) : ids;
}

/** Where one tile sits in the grid: CSS grid lines, counted from 1. */
export interface TilePlacement {
  column: number;
  row: number;
  columnSpan: number;
  rowSpan: number;
}

export interface GridPlan {
  /** `grid-template-columns`. */
  columns: string;
  rows: number;
  /** One placement per tile, in the tiles' order. */
  tiles: TilePlacement[];
  /** The large tile's index in focus layout; null when all tiles are the same size. */
  large: number | null;
  /** Width over height of the whole grid when every tile is 16:9 (to fit it to the screen). */
  aspect: number;
}

const WIDE = 16 / 9;

/**
 * How `count` tiles share the grid. Grid: two columns, as many rows as needed (one tile fills it
 * alone). Focus, with 3 or 4 tiles: the tile `large` (clamped to the tiles there are) takes the
 * first column and every row, the others are stacked in the second column, a third or a quarter
 * of its width; with fewer tiles there is nothing to set apart and it is the grid.
 */
export function planGrid(count: number, layout: MultiviewLayout, large = 0): GridPlan {
  const tiles = Math.max(0, Math.min(count, MAX_TILES));
  if (tiles <= 1) {
    return { columns: "minmax(0, 1fr)", rows: 1, large: null, aspect: WIDE, tiles: tiles ? [place(1, 1)] : [] };
  }
  if (layout === "focus" && tiles >= 3) {
    const big = Math.max(0, Math.min(large, tiles - 1));
    const small = tiles - 1;
    let row = 0;
    const placements = Array.from({ length: tiles }, (_, index) =>
      index === big ? place(1, 1, 1, small) : place(2, ++row),
    );
    // The large tile is `small` rows high, so `small` times as wide as a small one.
    return {
      columns: `minmax(0, ${small}fr) minmax(0, 1fr)`,
      rows: small,
      large: big,
      aspect: (WIDE * (small + 1)) / small,
      tiles: placements,
    };
  }
  const rows = Math.ceil(tiles / 2);
  return {
    columns: "repeat(2, minmax(0, 1fr))",
    rows,
    large: null,
    aspect: (WIDE * 2) / rows,
    tiles: Array.from({ length: tiles }, (_, index) => place((index % 2) + 1, Math.floor(index / 2) + 1)),
  };
}

function place(column: number, row: number, columnSpan = 1, rowSpan = 1): TilePlacement {
  return { column, row, columnSpan, rowSpan };
}

/** The tile shown large in focus layout: the one the sound comes from, else the first. */
export function largeTileIndex(ids: readonly string[], audible: string | null): number {
  const index = audible === null ? -1 : ids.indexOf(audible);
  return Math.max(0, index);
}
