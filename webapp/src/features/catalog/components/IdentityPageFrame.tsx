import type { ReactNode } from "react";
import type { UseQueryResult } from "@tanstack/react-query";
import type { Identity } from "@/entities/identity";
import { useDocumentTitle } from "@/ui/useDocumentTitle";
import { IdentityHeaderSkeleton } from "./IdentityHeader";
import { EventGridSkeleton } from "./EventGrid";
import { ErrorState, LoadingNote } from "@/ui/catalog/States";
import "@/ui/catalog/CatalogPage.css";

/** Loading, error and loaded states shared by the league, category, sub-category and team pages. */
export function IdentityPageFrame<T extends Identity>({
  query,
  children,
}: {
  query: UseQueryResult<T>;
  children: (identity: T) => ReactNode;
}) {
  useDocumentTitle(query.data ? (query.data.mediaType === "team" ? query.data.name : query.data.title) : undefined);
  return (
    <div className="page catalog-page">
      {query.isPending ? (
        <>
          <LoadingNote />
          <IdentityHeaderSkeleton />
          <EventGridSkeleton count={4} />
        </>
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        children(query.data)
      )}
    </div>
  );
}
