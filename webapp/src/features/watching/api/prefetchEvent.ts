import type { QueryClient } from "@tanstack/react-query";
import { isClipMediaType } from "@/entities/event";
import type { AppConfig } from "@/lib/config";
import { eventQueryOptions } from "./getEvent";
import { eventMapOptionsOf, type Audience } from "@/session/catalog/viewer";

/**
 * Starts loading the event page's event from the route's loader (and at start-up for a first
 * visit), with the very query key the page uses, so its answer is there when the page renders.
 * Settles once the answer (or its failure) is in the cache.
 */
export function prefetchEventAnswer(
  queryClient: QueryClient,
  config: AppConfig,
  audience: Audience,
  eventId: string | undefined,
  url: URL,
): Promise<void> {
  if (!eventId) return Promise.resolve();
  const requested = url.searchParams.get("media_type");
  const mediaType = isClipMediaType(requested) ? requested : undefined;
  return queryClient.prefetchQuery(eventQueryOptions({ id: eventId, mediaType }, audience, eventMapOptionsOf(config)));
}
