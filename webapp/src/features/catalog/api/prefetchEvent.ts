import type { QueryClient } from "@tanstack/react-query";
import { isClipMediaType } from "@/entities/event";
import type { AppConfig } from "@/lib/config";
import { eventQueryOptions } from "./getEvent";
import { eventMapOptionsOf, type Audience } from "./viewer";

/**
 * Starts loading the event page's event from the route's loader (and at start-up for a first
 * visit), with the very query key the page uses, so its answer is there when the page renders.
 */
export function prefetchEventAnswer(
  queryClient: QueryClient,
  config: AppConfig,
  audience: Audience,
  eventId: string | undefined,
  url: URL,
): void {
  if (!eventId) return;
  const requested = url.searchParams.get("media_type");
  const mediaType = isClipMediaType(requested) ? requested : undefined;
  void queryClient.prefetchQuery(eventQueryOptions({ id: eventId, mediaType }, audience, eventMapOptionsOf(config)));
}
