import type { components } from "./schema.gen";

type PageMeta = components["schemas"]["PageMeta"];

/** One page of a paged list (spec §3 "Page envelope"), with its entries already mapped. */
export interface Page<T> {
  page: number;
  entries: T[];
  /** Whether another page follows (the request asks for `next`). */
  nextExists: boolean;
  totalCount: number | null;
}

export function toPage<A, T>(page: number, content: PageMeta & { entries: A[] }, map: (entry: A) => T): Page<T> {
  return {
    page,
    entries: content.entries.map(map),
    nextExists: content.nextExists === true,
    totalCount: content.totalCount,
  };
}

/** For useInfiniteQuery: the next page number while the server says one exists. */
export function nextPageParam(last: Page<unknown>): number | undefined {
  return last.nextExists ? last.page + 1 : undefined;
}

/** Spec §9: lists load 10 entries a page unless they say otherwise. */
export const DEFAULT_PAGE_SIZE = 10;
