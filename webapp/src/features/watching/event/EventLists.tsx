import { useDeferredValue } from "react";
import { useQueries } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useAppConfig } from "@/lib/config";
import type { CatalogEvent } from "@/entities/event";
import { clipListQueryOptions, useClipList, type ClipListParams } from "@/session/catalog/listClips";
import { relatedVideosQueryOptions, useRelatedVideos } from "../api/getRelatedVideos";
import { useAudience, useEventMapOptions } from "@/session/catalog/viewer";
import { EventCard, EventCardSkeleton } from "@/ui/catalog/EventCard";
import { Rail } from "@/ui/catalog/Rail";
import { useLogFailure } from "@/lib/useLogFailure";

type HighlightKind = NonNullable<ClipListParams["type"]>[number];

/** Spec §9: the event page loads 24 items per media list. */
export const EVENT_PAGE_LIST_SIZE = 24;

/**
 * Game highlights are the game's own summaries; player highlights are the single moments cut
 * from it (the `clip` kind: a goal, a save, a dunk of one player).
 */
export const GAME_HIGHLIGHT_KINDS: HighlightKind[] = ["highlight", "recap", "condensed", "auto"];
export const PLAYER_HIGHLIGHT_KINDS: HighlightKind[] = ["clip"];

const eventKey = (event: CatalogEvent) => event.id;

interface ListQuery {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data?: CatalogEvent[];
  refetch: () => unknown;
}

/** One list of the page; a list that fails to load is logged and left out (spec §8). */
function EventRail({
  title,
  query,
  exclude,
  what,
}: {
  title: string;
  query: ListQuery;
  /** Ids not to show again: the page's own event, and in related videos what the lists above show. */
  exclude: ReadonlySet<string>;
  what: string;
}) {
  useLogFailure(query.error, what);
  if (query.isError) return null;
  const now = new Date();
  return (
    <Rail
      title={title}
      query={query}
      items={query.data?.filter((item) => !exclude.has(item.id))}
      itemKey={eventKey}
      renderItem={(item) => <EventCard event={item} now={now} />}
      skeleton={<EventCardSkeleton />}
    />
  );
}

const highlightParams = (gameId: string, kinds: HighlightKind[]): ClipListParams => ({
  eventIds: [gameId],
  type: kinds,
  order: "desc",
  size: EVENT_PAGE_LIST_SIZE,
});

function HighlightRail({
  title,
  gameId,
  kinds,
  exclude,
  what,
}: {
  title: string;
  gameId: string;
  kinds: HighlightKind[];
  exclude: ReadonlySet<string>;
  what: string;
}) {
  const query = useClipList(highlightParams(gameId, kinds));
  const list = { ...query, data: query.data?.entries };
  return <EventRail title={title} query={list} exclude={exclude} what={what} />;
}

/** Related videos, without the event itself and without what the highlight lists above show. */
function RelatedRail({ event, above }: { event: CatalogEvent; above: ClipListParams[] }) {
  const { t } = useTranslation("event");
  const audience = useAudience();
  const mapOptions = useEventMapOptions();
  const query = useRelatedVideos(event.id);
  // The lists above, from the cache they filled (no second request).
  const shownAbove = useQueries({
    queries: above.map((params) => clipListQueryOptions(params, audience, mapOptions)),
    combine: (results) => results.flatMap((result) => result.data?.entries ?? []).map((item) => item.id),
  });
  const exclude = new Set([event.id, ...shownAbove]);
  return <EventRail title={t("lists.related")} query={query} exclude={exclude} what="Related videos" />;
}

/**
 * Game highlights, player highlights (each where the configuration offers them) and related videos.
 * They show together once every list has answered, rendered in the background (up to 24 cards a
 * list, below the player): no placeholder that vanishes when a list turns out empty, no list that
 * pushes another one down as it arrives. Nothing on screen moves.
 */
export function EventLists({ event }: { event: CatalogEvent }) {
  const { t } = useTranslation("event");
  const { options } = useAppConfig();
  const audience = useAudience();
  const mapOptions = useEventMapOptions();
  // A highlight's lists are its game's.
  const gameId = event.isClip ? event.eventId : event.id;
  const lists = event.isChannel
    ? []
    : [
        ...(options.game_highlights ? [highlightParams(gameId, GAME_HIGHLIGHT_KINDS)] : []),
        ...(options.player_highlights ? [highlightParams(gameId, PLAYER_HIGHLIGHT_KINDS)] : []),
      ];
  const answered = useQueries({
    queries: [
      ...lists.map((params) => clipListQueryOptions(params, audience, mapOptions)),
      ...(event.isChannel ? [] : [relatedVideosQueryOptions(event.id, audience, mapOptions)]),
    ],
    combine: (results) => results.every((result) => !result.isPending),
  });
  const shown = useDeferredValue(answered);
  if (event.isChannel || !shown) return null;
  const own = new Set([event.id]);
  return (
    <>
      {options.game_highlights && (
        <HighlightRail
          title={t("lists.game_highlights")}
          gameId={gameId}
          kinds={GAME_HIGHLIGHT_KINDS}
          exclude={own}
          what="Game highlights"
        />
      )}
      {options.player_highlights && (
        <HighlightRail
          title={t("lists.player_highlights")}
          gameId={gameId}
          kinds={PLAYER_HIGHLIGHT_KINDS}
          exclude={own}
          what="Player highlights"
        />
      )}
      <RelatedRail event={event} above={lists} />
    </>
  );
}
