import { useMutation } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { sessionStore } from "@/session/store";

/** Puts an event or clip on the watchlist; answers the watchlist's ids after the change. */
export async function addToWatchlist(videoId: string): Promise<string[]> {
  const answer = await unwrap(api.POST("/user/add_to_watchlist", { body: { video_id: videoId } }));
  return answer.content.selected;
}

/** The watchlist lives in the session (`selected`, spec §3): the answer replaces it there. */
export function useAddToWatchlist() {
  return useMutation({
    mutationFn: addToWatchlist,
    onSuccess: (selected) => sessionStore.setState({ selected }),
  });
}
