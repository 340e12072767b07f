import type { Dispatch, Ref } from "react";
import { useTranslation } from "react-i18next";
import { useErrorText } from "@/api/errors";
import { accessOf, type CatalogEvent } from "@/entities/event";
import { FallbackImage } from "@/ui/images/FallbackImage";
import { Countdown } from "./Countdown";
import { EventPlayer, type EventPlayerHandle, type EventPlayerProps } from "./EventPlayer";
import { LiveFeedNotice } from "./LiveFeedNotice";
import { Paywall } from "./Paywall";
import type { EventPageAction, EventPageState } from "./realtime";

function Poster({ event, children }: { event: CatalogEvent; children?: React.ReactNode }) {
  return (
    <div className="event-stage__poster">
      <FallbackImage
        className="event-stage__image"
        src={event.posterUrl}
        alt=""
        fallback="banner"
        width={1280}
        height={720}
        loading="eager"
      />
      {children && <div className="event-stage__overlay">{children}</div>}
    </div>
  );
}

function StreamError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation("event");
  const errorText = useErrorText();
  return (
    <div className="event-stage__error" role="alert">
      <p>
        {t("stage.stream_failed")} {errorText(error)}
      </p>
      <button type="button" className="btn" onClick={onRetry}>
        {t("stage.retry")}
      </button>
    </div>
  );
}

/**
 * The top of the event page: the player for a viewer who may watch, the countdown before
 * kick-off (which turns into the player when the event goes live, without a reload), the paywall
 * for a viewer who may not watch, or the poster with what is going on.
 */
export function EventStage({
  event,
  state,
  dispatch,
  playerRef,
  markers,
  startAt,
  onStreamTimeChange,
  onRetryStream,
  onClipEnded,
}: {
  event: CatalogEvent;
  state: EventPageState;
  dispatch: Dispatch<EventPageAction>;
  playerRef: Ref<EventPlayerHandle>;
  markers: EventPlayerProps["markers"];
  startAt: number | null;
  onStreamTimeChange: (seconds: number) => void;
  onRetryStream: () => void;
  onClipEnded?: () => void;
}) {
  const { t } = useTranslation("event");
  const available = accessOf(event).kind === "available";
  const upcoming = event.status === "upcoming";

  let body: React.ReactNode;
  if (!available) {
    body = (
      <Poster event={event}>
        <Paywall event={event} />
      </Poster>
    );
  } else if (event.streamUrl && !upcoming) {
    body = (
      <EventPlayer
        key={state.playerResets}
        ref={playerRef}
        event={event}
        markers={markers}
        startAt={startAt}
        onStreamTimeChange={onStreamTimeChange}
        onClipEnded={onClipEnded}
        notice={event.isLive && event.liveFeed ? <LiveFeedNotice feed={event.liveFeed} /> : null}
      />
    );
  } else if (upcoming) {
    body = (
      <Poster event={event}>
        <Countdown
          startsAt={event.startsAt}
          startingSoon={state.startingSoon}
          onElapsed={() => dispatch({ type: "kickoff-passed" })}
        />
      </Poster>
    );
  } else {
    body = (
      <Poster event={event}>
        <p className="event-stage__note" role="status">
          {event.isLive ? t("stage.stream_soon") : t("stage.no_video")}
        </p>
      </Poster>
    );
  }

  return (
    <div className="event-stage">
      {body}
      {state.streamError !== null && <StreamError error={state.streamError} onRetry={onRetryStream} />}
    </div>
  );
}
