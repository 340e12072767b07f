import { useInfiniteQuery, useMutation, useQueryClient, type InfiniteData } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "@/api/client";
import { errorText } from "@/api/errors";
import { mapEvent, type CatalogEvent } from "@/entities/event";
import { notify } from "@/lib/notify";
import { sessionStore } from "@/session/store";
import { useEventMapOptions } from "./recommendations";

export const WATCHLIST_PAGE_SIZE = 24;
export const watchlistKey = ["following", "watchlist"] as const;

export interface ListPage<T> {
  page: number;
  entries: T[];
  nextExists: boolean;
}

type WatchlistData = InfiniteData<ListPage<CatalogEvent>, number>;

/** The viewer's watchlist (get_watchlist), page by page. */
export function useWatchlist() {
  const options = useEventMapOptions();
  return useInfiniteQuery({
    queryKey: [...watchlistKey, options],
    initialPageParam: 0,
    queryFn: async ({ pageParam, signal }): Promise<ListPage<CatalogEvent>> => {
      const answer = await unwrap(
        api.GET("/user/get_watchlist", {
          params: { query: { page: pageParam, size: WATCHLIST_PAGE_SIZE, next: true } },
          signal,
        }),
      );
      return {
        page: pageParam,
        entries: answer.content.entries.map((entry) => mapEvent(entry, options)),
        nextExists: answer.content.nextExists === true,
      };
    },
    getNextPageParam: (last) => (last.nextExists ? last.page + 1 : undefined),
  });
}

/** Takes a video off the watchlist: gone from the page at once, back with a toast when refused. */
export function useRemoveFromWatchlist() {
  const queryClient = useQueryClient();
  const { t } = useTranslation(["following", "errors"]);
  return useMutation({
    mutationFn: async (event: CatalogEvent) => {
      const answer = await unwrap(api.POST("/user/remove_from_watchlist", { body: { video_id: event.id } }));
      return answer.content.selected;
    },
    onMutate: async (event) => {
      await queryClient.cancelQueries({ queryKey: watchlistKey });
      const snapshot = queryClient.getQueriesData<WatchlistData>({ queryKey: watchlistKey });
      queryClient.setQueriesData<WatchlistData>({ queryKey: watchlistKey }, (data) =>
        data
          ? { ...data, pages: data.pages.map((p) => ({ ...p, entries: p.entries.filter((e) => e.id !== event.id) })) }
          : data,
      );
      return { snapshot };
    },
    onSuccess: (selected) => sessionStore.setState({ selected }),
    onError: (error, event, context) => {
      for (const [key, data] of context?.snapshot ?? []) queryClient.setQueryData(key, data);
      void notify.danger(t("following:toast.removeFailed", { name: event.title }), {
        description: errorText(error, t),
      });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: watchlistKey }),
  });
}
