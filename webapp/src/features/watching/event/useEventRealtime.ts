import { useEffect, useRef, type Dispatch } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { CatalogEvent } from "@/entities/event";
import { usePurchaseStatus } from "@/realtime/purchases";
import { useSocketEvent } from "@/realtime/socket";
import { useEventRoom } from "@/realtime/useEventRoom";
import { sameStream } from "@/ui/player";
import { eventQueryOptions, type EventLookup } from "../api/getEvent";
import { commerceOptionsQueryOptions } from "../api/getCommerceOptions";
import { tagsKey } from "../api/listTags";
import { useAudience, useEventMapOptions } from "@/session/catalog/viewer";
import { catchUpKey } from "./catchUp/catchUpQuery";
import {
  applyUpdateEvent,
  purchaseConcerns,
  reloadUntilUnlocked,
  withEventUrlChange,
  type EventPageAction,
} from "./realtime";

/**
 * The event page's realtime behaviour (spec §4): the room, and what event-url-change,
 * update-event and user-purchase-status do to the cached event and to the page's state.
 */
export function useEventRealtime(
  lookup: EventLookup,
  event: CatalogEvent | undefined,
  dispatch: Dispatch<EventPageAction>,
): { reloadStream: () => void } {
  const queryClient = useQueryClient();
  const audience = useAudience();
  const mapOptions = useEventMapOptions();
  const options = eventQueryOptions(lookup, audience, mapOptions);
  const roomId = event?.id ?? lookup.id;

  useEventRoom(roomId, event?.status);

  /** Counts the unlock attempts: a newer one, or leaving the page, stops an older one. */
  const unlocking = useRef(0);
  useEffect(
    () => () => {
      unlocking.current += 1;
    },
    [],
  );

  /** Loads the event again for the stream signed for this viewer; the player starts afresh. */
  const reloadStream = () => {
    const before = queryClient.getQueryData(options.queryKey)?.streamUrl ?? null;
    queryClient.fetchQuery({ ...options, staleTime: 0 }).then(
      (fresh) => dispatch({ type: "stream-reloaded", sameStream: sameStream(before, fresh.streamUrl) }),
      (error: unknown) => dispatch({ type: "stream-failed", error }),
    );
  };

  useSocketEvent("event-url-change", (payload) => {
    if (payload.eventId !== roomId) return;
    dispatch({ type: "event-url-change" });
    queryClient.setQueryData(options.queryKey, (current) => current && withEventUrlChange(current));
    // The message names the stored address, which plays for nobody: reload the event for the one
    // signed for this viewer (and load it at all when none is loaded yet).
    reloadStream();
  });

  // Global tags changed (staff or the data partner tagged a goal): the moments and key plays follow.
  useSocketEvent("tags-change", (payload) => {
    if (payload.eventId !== roomId) return;
    void queryClient.invalidateQueries({ queryKey: tagsKey(roomId) });
    void queryClient.invalidateQueries({ queryKey: catchUpKey(roomId) });
  });

  useSocketEvent("update-event", (payload) => {
    if (payload.eventId !== roomId) return;
    queryClient.setQueryData(options.queryKey, (current) => current && applyUpdateEvent(current, payload, mapOptions));
    void queryClient.invalidateQueries({ queryKey: options.queryKey, exact: true });
    if (payload.commerce_type !== undefined)
      void queryClient.invalidateQueries({ queryKey: commerceOptionsQueryOptions(roomId, audience).queryKey });
  });

  // From the user room (every socket of the viewer) and from this browser's other tabs.
  usePurchaseStatus((payload) => {
    if (!event) return;
    const commerceKey = commerceOptionsQueryOptions(event.id, audience).queryKey;
    const productIds = queryClient.getQueryData(commerceKey)?.products.map((product) => product.id) ?? [];
    const concerns = purchaseConcerns(payload, event.id, productIds);
    if (concerns) dispatch({ type: "purchase-status", status: payload.status });
    // A completed purchase may unlock the event (a subscription bought elsewhere too): reload it,
    // and the player starts with the stream the viewer now gets. Again a little later while it
    // still reads locked (an answer from just before the settlement).
    if (payload.status === "success" && (concerns || !event.isAvailableForUser)) {
      const attempt = ++unlocking.current;
      void reloadUntilUnlocked(
        () =>
          Promise.all([
            queryClient.invalidateQueries({ queryKey: commerceKey }),
            queryClient.invalidateQueries({ queryKey: options.queryKey, exact: true }),
          ]),
        () => queryClient.getQueryData(options.queryKey)?.isAvailableForUser === true,
        { cancelled: () => unlocking.current !== attempt },
      );
    }
  });

  return { reloadStream };
}
