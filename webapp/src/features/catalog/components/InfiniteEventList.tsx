import { useEffect, useRef, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { InfiniteData, UseInfiniteQueryResult } from "@tanstack/react-query";
import type { CatalogEvent } from "@/entities/event";
import type { Page } from "../api/page";
import { EventGrid, EventGridSkeleton } from "./EventGrid";
import { EmptyState, ErrorState, LoadingNote } from "./States";

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
 * A paged list of cards with infinite scroll, plus a "Load more" button for keyboard and
 * screen-reader users; skeletons, empty and error states included.
 */
export function InfiniteEventList({ query, empty, label }: { query: Query; empty: ReactNode; label?: string }) {
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

  const events = query.data.pages.flatMap((page) => page.entries);
  if (events.length === 0) return <EmptyState>{empty}</EmptyState>;

  return (
    <>
      <EventGrid events={events} label={label} />
      <div ref={sentinel} />
      {query.isFetchNextPageError && <ErrorState error={query.error} onRetry={() => void query.fetchNextPage()} />}
      {query.hasNextPage && !query.isFetchNextPageError && (
        <div className="catalog-more">
          <button type="button" className="btn" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage} aria-busy={query.isFetchingNextPage}>
            {query.isFetchingNextPage ? t("loading_more") : t("load_more")}
          </button>
        </div>
      )}
    </>
  );
}
