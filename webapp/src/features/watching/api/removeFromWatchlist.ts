import { useMutation } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { sessionStore } from "@/session/store";

/** Takes an event or clip off the watchlist; answers the watchlist's ids after the change. */
export async function removeFromWatchlist(videoId: string): Promise<string[]> {
  const answer = await unwrap(api.POST("/user/remove_from_watchlist", { body: { video_id: videoId } }));
  return answer.content.selected;
}

/** The watchlist lives in the session (`selected`, spec §3): the answer replaces it there. */
export function useRemoveFromWatchlist() {
  return useMutation({
    mutationFn: removeFromWatchlist,
    onSuccess: (selected) => sessionStore.setState({ selected }),
  });
}
