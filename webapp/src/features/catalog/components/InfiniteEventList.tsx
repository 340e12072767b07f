import { useEffect, useRef, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { InfiniteData, UseInfiniteQueryResult } from "@tanstack/react-query";
import type { CatalogEvent } from "@/entities/event";
import type { Page } from "@/api/page";
import { EventGrid, EventGridSkeleton } from "./EventGrid";
import { EmptyState, ErrorState, LoadingNote } from "@/ui/catalog/States";

type Query = UseInfiniteQueryResult<InfiniteData<Page<CatalogEvent>>>;

/** Starts loading the next page a little before the end of the list comes into view. */
function useLoadOnView(query: Query) {
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  useEffect(() => {
    const element = sentinel.current;
    if (!element || !hasNextPage || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: "400px 0px" },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  return sentinel;
}

/**
 * The entries of every loaded page, each once: offset pages shift when an event is added or
 * starts while the viewer scrolls, so the next page can repeat the end of the previous one.
 */
export function uniqueEntries(pages: readonly Page<CatalogEvent>[]): CatalogEvent[] {
  const seen = new Set<string>();
  const events: CatalogEvent[] = [];
  for (const event of pages.flatMap((page) => page.entries)) {
    if (seen.has(event.id)) continue;
    seen.add(event.id);
    events.push(event);
  }
  return events;
}

interface Props {
  query: Query;
  empty: ReactNode;
  label?: string;
  /** The cards' heading level: 2 for a page's main list, 3 under a section's own heading. */
  headingLevel?: 2 | 3;
}

/**
 * A paged list of cards with infinite scroll, plus a "Load more" button for keyboard and
 * screen-reader users; skeletons, empty and error states included.
 */
export function InfiniteEventList({ query, empty, label, headingLevel = 2 }: Props) {
  const { t } = useTranslation("catalog");
  const sentinel = useLoadOnView(query);

  if (query.isPending) {
    return (
      <>
        <LoadingNote />
        <EventGridSkeleton />
      </>
    );
  }
  if (query.isError && !query.data) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;

  const events = uniqueEntries(query.data.pages);
  if (events.length === 0) return <EmptyState>{empty}</EmptyState>;

  return (
    <>
      <EventGrid events={events} label={label} headingLevel={headingLevel} />
      <div ref={sentinel} />
      {query.isFetchNextPageError && <ErrorState error={query.error} onRetry={() => void query.fetchNextPage()} />}
      {query.hasNextPage && !query.isFetchNextPageError && (
        <div className="catalog-more">
          <button
            type="button"
            className="btn"
            onClick={() => void query.fetchNextPage()}
            disabled={query.isFetchingNextPage}
            aria-busy={query.isFetchingNextPage}
          >
            {query.isFetchingNextPage ? t("loading_more") : t("load_more")}
          </button>
        </div>
      )}
    </>
  );
}
