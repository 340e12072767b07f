import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "@/api/client";
import { errorText } from "@/api/errors";
import { mapFollowEntry, type FollowedItem } from "@/entities/followed";
import { useAppConfig } from "@/lib/config";
import { notify } from "@/lib/notify";
import { sessionStore } from "@/session/store";

export interface ToggleFollowInput {
  item: FollowedItem;
  /** true: follow it; false: stop following it. */
  follow: boolean;
}

interface Snapshot {
  previous: FollowedItem | undefined;
}

/** The key of every follow and unfollow in flight: a follow list answered meanwhile is dropped. */
export const toggleFollowKey = ["following", "toggle"] as const;
/** Query keys of the following pages that a follow or unfollow makes stale. */
const FOLLOW_LIST_KEY = ["following", "list"] as const;
const RECOMMENDATIONS_KEY = ["following", "recommendations"] as const;

function withItem(item: FollowedItem): void {
  const { followed } = sessionStore.getState();
  sessionStore.setState({ followed: { ...followed, [item.id]: item } });
}

function withoutItem(id: string): void {
  const { followed } = sessionStore.getState();
  if (!(id in followed)) return;
  sessionStore.setState({ followed: Object.fromEntries(Object.entries(followed).filter(([key]) => key !== id)) });
}

/**
 * Follows or unfollows one league, category or team (follow/save, follow/remove_by_reference),
 * wherever a page offers it: the following pages' tiles and the catalogue pages' Follow buttons.
 * Optimistic: the session's followed map changes at once and is put back, with a translated
 * toast, when the server refuses.
 */
export function useToggleFollow() {
  const queryClient = useQueryClient();
  // The shell's own namespace: every page has it, so no page waits for the button's words.
  const { t, i18n } = useTranslation("common");
  const teamsShortName = useAppConfig().options.teams_short_name;

  return useMutation<FollowedItem | null, unknown, ToggleFollowInput, Snapshot>({
    mutationKey: toggleFollowKey,
    mutationFn: async ({ item, follow }) => {
      if (!follow) {
        await unwrap(api.POST("/follow/remove_by_reference", { body: { id: item.id } }));
        return null;
      }
      const answer = await unwrap(api.POST("/follow/save", { body: { reference_id: item.id, type: item.type } }));
      return mapFollowEntry(answer.content, { teamsShortName });
    },
    onMutate: ({ item, follow }) => {
      const previous = sessionStore.getState().followed[item.id];
      if (follow) withItem(item);
      else withoutItem(item.id);
      return { previous };
    },
    onSuccess: (saved, { follow }) => {
      // The server's item carries what the page did not know (its categories).
      if (follow && saved && saved.id in sessionStore.getState().followed) withItem(saved);
    },
    onError: async (error, { item, follow }, context) => {
      if (context?.previous) withItem(context.previous);
      else withoutItem(item.id);
      const message = t(follow ? "follow.follow_failed" : "follow.unfollow_failed", { name: item.title });
      // The error's own words are in the errors namespace, which a catalogue page has not loaded.
      await i18n.loadNamespaces("errors").catch(() => undefined);
      void notify.danger(message, { description: errorText(error, t) });
    },
    // Recommendations follow what is followed; the list itself is the session's already.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: FOLLOW_LIST_KEY, refetchType: "none" });
      void queryClient.invalidateQueries({ queryKey: RECOMMENDATIONS_KEY });
    },
  });
}
