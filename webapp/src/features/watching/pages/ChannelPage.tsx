import { Suspense, useEffect, useMemo, useReducer, useRef, type Dispatch } from "react";
import { useParams } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { accessOf, type CatalogEvent } from "@/entities/event";
import { FallbackImage } from "@/ui/images/FallbackImage";
// The module itself, not @/ui/player: starting the player's download needs nothing else.
import { preloadPlayer } from "@/ui/player/load";
import { useDocumentTitle } from "@/ui/useDocumentTitle";
import { eventQueryOptions, type EventLookup } from "../api/getEvent";
import { useAudience, useEventMapOptions } from "@/session/catalog/viewer";
import { ChannelProgramme } from "../components/ChannelProgramme";
import { EventAvailability } from "../components/EventAvailability";
import { EventPageWaiting } from "../components/EventPageSkeleton";
import type { EventPlayerHandle } from "../event/EventPlayer";
import { EventStage } from "../event/EventStage";
import { PurchaseNotice } from "../event/PurchaseNotice";
import { eventPageReducer, initialEventPageState, type EventPageAction, type EventPageState } from "../event/realtime";
import { useEventRealtime } from "../event/useEventRealtime";
import { useEntityOrNotFound } from "@/lib/useEntityOrNotFound";
import "@/ui/catalog/CatalogPage.css";
import "../event/EventView.css";
import "./EventPage.css";

const isChannel = (event: CatalogEvent): event is CatalogEvent => event.isChannel;
/** A channel has no timeline tags: one empty list, so the player never sees a new one. */
const NO_MARKERS: never[] = [];
const ignoreStreamTime = () => undefined;

/** What shows while the stage's words and code arrive: the channel's poster, where the player goes. */
function PosterPlaceholder({ channel }: { channel: CatalogEvent }) {
  return (
    <div className="event-page__hero">
      <FallbackImage
        className="event-page__poster"
        src={channel.posterUrl}
        alt=""
        fallback="banner"
        width={1280}
        height={720}
        loading="eager"
      />
    </div>
  );
}

function Channel({
  channel,
  state,
  dispatch,
  onRetryStream,
}: {
  channel: CatalogEvent;
  state: EventPageState;
  dispatch: Dispatch<EventPageAction>;
  onRetryStream: () => void;
}) {
  const { t } = useTranslation("catalog");
  useDocumentTitle(channel.title);
  const player = useRef<EventPlayerHandle>(null);
  const playable = accessOf(channel).kind === "available" && !!channel.streamUrl;

  // The player's code starts downloading as soon as there is something to play.
  useEffect(() => {
    if (playable) preloadPlayer();
  }, [playable]);

  return (
    <article className="event-page">
      {/* The event page's stage: the live player for a viewer who may watch, else the paywall. */}
      <div className="event-page__stage">
        <Suspense fallback={<PosterPlaceholder channel={channel} />}>
          <EventStage
            event={channel}
            state={state}
            dispatch={dispatch}
            playerRef={player}
            markers={NO_MARKERS}
            startAt={null}
            onStreamTimeChange={ignoreStreamTime}
            onRetryStream={onRetryStream}
          />
          <PurchaseNotice notice={state.purchase} dispatch={dispatch} />
        </Suspense>
      </div>
      <div className="event-page__main">
        <h1 className="event-page__title" dir="auto">
          {channel.title}
        </h1>
        {channel.description && (
          <p className="event-page__description" dir="auto">
            {channel.description}
          </p>
        )}
        <EventAvailability event={channel} />
      </div>
      <section className="catalog-section event-page__wide" aria-labelledby="channel-programme">
        <h2 id="channel-programme" className="catalog-section__title">
          {t("channel.programme")}
        </h2>
        <ChannelProgramme channel={channel} />
      </section>
    </article>
  );
}

function ChannelScreen({ eventId }: { eventId: string }) {
  const lookup = useMemo<EventLookup>(() => ({ id: eventId }), [eventId]);
  const [state, dispatch] = useReducer(eventPageReducer, initialEventPageState);
  const eventQuery = useQuery(eventQueryOptions(lookup, useAudience(), useEventMapOptions()));
  const query = useEntityOrNotFound(eventQuery, "channel", isChannel);
  // A purchase announced on the user room unlocks the channel, and a stream that changes is
  // loaded again, as on the event page.
  const { reloadStream } = useEventRealtime(lookup, query.data, dispatch);

  if (query.data)
    return <Channel channel={query.data} state={state} dispatch={dispatch} onRetryStream={reloadStream} />;
  return <EventPageWaiting query={query} />;
}

/**
 * /channels/:eventId: a channel (an always-on event) playing live for a viewer who may watch it,
 * or its paywall for one who may not (the event page's stage), with its programme guide.
 */
export default function ChannelPage() {
  const { eventId = "" } = useParams();
  return (
    <div className="page">
      {/* Another channel is a new page: its state and player start afresh. */}
      <ChannelScreen key={eventId} eventId={eventId} />
    </div>
  );
}
