import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { components } from "@/api/schema.gen";

type ApiCatchUp = components["schemas"]["CatchUp"];

/** One key play: where it lies in the event's stream and where it begins in the catch-up (seconds). */
export interface KeyPlay {
  id: string;
  subtype: string;
  title: string;
  start: number;
  end: number;
  reelOffset: number;
}

/** A live event's key plays so far, and the playlist that plays them (null while there is none). */
export interface CatchUp {
  url: string | null;
  liveEdge: number;
  keyPlays: KeyPlay[];
}

export function mapCatchUp(answer: ApiCatchUp): CatchUp {
  return {
    url: answer.url,
    liveEdge: answer.liveEdgeMs / 1000,
    keyPlays: answer.keyPlays.map((play) => ({
      id: play._id,
      subtype: play.subtype,
      title: play.title,
      start: play.startTime / 1000,
      end: play.endTime / 1000,
      reelOffset: play.reelOffset,
    })),
  };
}

export async function fetchCatchUp(eventId: string, signal?: AbortSignal): Promise<CatchUp> {
  const answer = await unwrap(api.GET("/event/catch_up/{id}", { params: { path: { id: eventId } }, signal }));
  return mapCatchUp(answer.content);
}

/** The answer of an event with nothing to cut yet (or a stream of another host). */
export const NO_CATCH_UP = "catch_up_unavailable";

/** Every catch-up answer of one event starts with this key (a `tags-change` invalidates it). */
export const catchUpKey = (eventId: string) => ["watching", "catch-up", eventId] as const;

export function catchUpQuery(eventId: string) {
  return queryOptions({
    queryKey: catchUpKey(eventId),
    queryFn: ({ signal }) => fetchCatchUp(eventId, signal),
    // The live edge moves on: key plays recorded since are asked for again now and then.
    refetchInterval: 60_000,
  });
}
