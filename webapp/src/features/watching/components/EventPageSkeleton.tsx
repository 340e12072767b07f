import type { UseQueryResult } from "@tanstack/react-query";
import { ErrorState, LoadingNote } from "@/ui/catalog/States";
import "../pages/EventPage.css";

/** The event and channel pages' shape while they load: poster, then title lines. */
function EventPageSkeleton() {
  return (
    <div className="event-page event-page--skeleton" aria-hidden="true">
      <div className="event-page__hero" />
      <div className="event-page__main">
        <span className="event-page__line event-page__line--short" />
        <span className="event-page__line event-page__line--title" />
        <span className="event-page__line" />
      </div>
    </div>
  );
}

/** The event and channel pages before their event is there: the error with a retry when the
 * first load failed, the skeleton while it loads. */
export function EventPageWaiting({ query }: { query: UseQueryResult<unknown> }) {
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  return (
    <>
      <LoadingNote />
      <EventPageSkeleton />
    </>
  );
}
