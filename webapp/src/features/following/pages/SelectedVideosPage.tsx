import { useTranslation } from "react-i18next";
import { useDocumentTitle } from "@/ui/useDocumentTitle";
import { useRemoveFromWatchlist, useWatchlist } from "../api/watchlist";
import { EventTile } from "../components/EventTile";
import { EmptyState, ErrorState } from "../components/States";
import "../components/following.css";

/** /selected/videos: the watchlist, each video with a Remove button. */
export default function SelectedVideosPage() {
  const { t } = useTranslation("following");
  const watchlist = useWatchlist();
  const remove = useRemoveFromWatchlist();
  useDocumentTitle(t("videos.title"));
  const events = watchlist.data?.pages.flatMap((page) => page.entries);

  let body;
  if (watchlist.isError) body = <ErrorState error={watchlist.error} onRetry={() => void watchlist.refetch()} />;
  else if (!events) body = <p role="status">{t("state.loading")}</p>;
  else if (!events.length) body = <EmptyState>{t("videos.empty")}</EmptyState>;
  else
    body = (
      <ul className="event-tiles" aria-label={t("videos.title")}>
        {events.map((event) => (
          <EventTile
            key={event.id}
            event={event}
            action={
              <button
                type="button"
                className="btn btn--ghost event-tile__action"
                aria-label={t("videos.removeNamed", { name: event.title })}
                onClick={() => remove.mutate(event)}
              >
                {t("videos.remove")}
              </button>
            }
          />
        ))}
      </ul>
    );

  return (
    <section className="page following-page" aria-labelledby="videos-title">
      <h1 id="videos-title" className="page__title">
        {t("videos.title")}
      </h1>
      {body}
      {watchlist.hasNextPage && (
        <button
          type="button"
          className="btn following-more"
          disabled={watchlist.isFetchingNextPage}
          onClick={() => void watchlist.fetchNextPage()}
        >
          {t("state.more")}
        </button>
      )}
    </section>
  );
}
