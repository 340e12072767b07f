import { useMemo, useReducer, useRef, useState, type Dispatch } from "react";
import { useParams, useSearchParams } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { isApiError } from "@/api/apiError";
import { useAppConfig } from "@/lib/config";
import type { UserClip } from "@/entities/clip";
import { accessOf, isClipMediaType, type CatalogEvent, type MediaType } from "@/entities/event";
import { useScoresHidden, useSpoilerSafe } from "@/session/spoilers";
import { useIsAuthenticated } from "@/session/store";
import { useDocumentTitle } from "@/ui/useDocumentTitle";
import { eventQueryOptions, fetchEvent, type EventLookup } from "../api/getEvent";
import { eventStatsQueryOptions } from "../api/getEventStats";
import { useTags } from "../api/listTags";
import { useUserClips } from "../api/listUserClips";
import { useAudience, useEventMapOptions } from "@/session/catalog/viewer";
import { ChannelProgramme } from "../components/ChannelProgramme";
import { EventPageWaiting } from "../components/EventPageSkeleton";
import { EventDetails } from "../event/EventDetails";
import { EventLists } from "../event/EventLists";
import type { EventPlayerHandle } from "../event/EventPlayer";
import { EventStage } from "../event/EventStage";
import { EventStatsPanel } from "../event/EventStatsPanel";
import { MomentsPanel } from "../event/MomentsPanel";
import { KeyPlaysPanel } from "../event/catchUp/KeyPlaysPanel";
import { MyClipsPanel } from "../event/MyClipsPanel";
import { PlayerControlsContext, type PlayerControls, type Reel } from "../event/playerControls";
import { PlayerToolbar } from "../event/PlayerToolbar";
import { PurchaseNotice } from "../event/PurchaseNotice";
import { ResumeNote } from "../event/ResumeNote";
import { eventPageReducer, initialEventPageState, type EventPageAction, type EventPageState } from "../event/realtime";
import { parseStartAt } from "../event/share";
import { statsRefreshInterval } from "../event/statsView";
import { SpoilerSwitch } from "../event/SpoilerSwitch";
import { createStreamClock, usePlayedSeconds } from "../event/streamClock";
import { useEventRealtime } from "../event/useEventRealtime";
import { usePlaybackPosition } from "../event/usePlaybackPosition";
import { useEntityOrNotFound } from "@/lib/useEntityOrNotFound";
import { useLogFailure } from "@/lib/useLogFailure";
import "../event/EventView.css";
import "./EventPage.css";

/** Once kick-off time has passed, how often an upcoming event is asked whether it is live yet. */
const STARTING_SOON_POLL_MS = 5000;

function scrollIntoViewGently(element: HTMLElement | null) {
  const reduce = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
  element?.scrollIntoView?.({ block: "nearest", behavior: reduce ? "auto" : "smooth" });
}

function ClipBanner({ clip, onBack }: { clip: UserClip; onBack: () => void }) {
  const { t } = useTranslation("event");
  return (
    <div className="event-clip-banner">
      <p dir="auto">{t("clips.now_playing", { title: clip.title })}</p>
      <button type="button" className="btn" onClick={onBack}>
        {t("clips.back_to_event")}
      </button>
    </div>
  );
}

function EventView({
  event: answered,
  state,
  dispatch,
  startAt,
  onRetryStream,
}: {
  event: CatalogEvent;
  state: EventPageState;
  dispatch: Dispatch<EventPageAction>;
  startAt: number | null;
  onRetryStream: () => void;
}) {
  const { t } = useTranslation("event");
  const config = useAppConfig();
  const mapOptions = useEventMapOptions();
  const signedIn = useIsAuthenticated();
  // Spoiler-free: no score in what is shown, nor key plays ahead of the playhead.
  const scoresHidden = useScoresHidden(answered.id);
  const event = useSpoilerSafe(answered);
  useDocumentTitle(event.title);

  const player = useRef<EventPlayerHandle>(null);
  const stage = useRef<HTMLDivElement>(null);
  const [clock] = useState(createStreamClock);
  const [playingClip, setPlayingClip] = useState<UserClip | null>(null);
  const [reel, setReel] = useState<Reel | null>(null);
  const [liveAgain, setLiveAgain] = useState(false);
  const resume = usePlaybackPosition({
    event,
    player,
    clock,
    root: stage,
    signedIn,
    startAt,
    suspended: !!playingClip || !!reel,
  });

  const available = accessOf(event).kind === "available";
  // Spec §4 and §6: tags and clips only for signed-in viewers, never for channels.
  const personal = signedIn && !event.isChannel;
  const tags = useTags(event.id, personal);
  const clips = useUserClips(event.id, personal && !event.isClip);
  useLogFailure(clips.error, "User clips");

  const statsOffered = config.options.match_stats && event.statsEnabled && !!event.teams;
  const stats = useQuery({
    ...eventStatsQueryOptions(event.id),
    enabled: statsOffered && !scoresHidden,
    refetchInterval: statsRefreshInterval(event),
  });
  // A game without partner data answers 404: nothing to show, nothing went wrong.
  useLogFailure(isApiError(stats.error, "stats_not_found") ? null : stats.error, "Stats");

  const played = usePlayedSeconds(clock, scoresHidden);
  const shownTags = useMemo(
    () => (scoresHidden ? tags.tags.filter((tag) => played !== null && tag.time <= played) : tags.tags),
    [tags.tags, scoresHidden, played],
  );
  const markers = useMemo(
    () =>
      playingClip || reel
        ? []
        : shownTags.map((tag) => ({ id: tag.id, time: tag.time, label: tag.title, global: tag.global })),
    [shownTags, playingClip, reel],
  );

  const backToEvent = () => {
    player.current?.playClip(null);
    setPlayingClip(null);
    setReel(null);
  };
  // The catch-up played to its end: the live edge, by itself.
  const caughtUp = () => {
    backToEvent();
    setLiveAgain(true);
  };
  const controls: PlayerControls = {
    currentTime: () => (playingClip ? null : (player.current?.streamTime() ?? null)),
    seek: (seconds) => {
      const handle = player.current;
      if (!handle) return;
      if (playingClip || reel) backToEvent();
      handle.seekTo(seconds);
      void handle.play().catch(() => undefined);
      scrollIntoViewGently(stage.current);
    },
    playClip: (clip) => {
      if (!clip.streamUrl || !player.current) return;
      // A clip's address is signed like the event's: a fresh answer renews it before it expires.
      const renew = async () => (await fetchEvent({ id: clip.id, mediaType: clip.mediaType }, mapOptions)).streamUrl;
      player.current.playClip({ url: clip.streamUrl, title: clip.title, renew });
      setPlayingClip(clip);
      scrollIntoViewGently(stage.current);
    },
    backToEvent,
    playingClipId: playingClip?.id ?? null,
    playReel: (next) => {
      if (!player.current) return;
      player.current.playClip({ url: next.url, title: t("catch_up.player_title"), renew: next.renew });
      setPlayingClip(null);
      setReel(next);
      setLiveAgain(false);
      void player.current.play().catch(() => undefined);
      scrollIntoViewGently(stage.current);
    },
    reelTime: () => (reel ? (player.current?.streamTime() ?? null) : null),
    seekReel: (seconds) => player.current?.seekTo(seconds),
    reelPlaying: reel !== null,
    clock,
  };

  return (
    <PlayerControlsContext.Provider value={controls}>
      <article className="event-page">
        <div className="event-page__stage" ref={stage}>
          <EventStage
            event={event}
            state={state}
            dispatch={dispatch}
            playerRef={player}
            markers={markers}
            startAt={startAt}
            onStreamTimeChange={clock.set}
            onRetryStream={onRetryStream}
            onClipEnded={reel ? caughtUp : undefined}
          />
          {liveAgain && (
            <p className="event-live-again" role="status">
              {t("catch_up.live_again")}
            </p>
          )}
          {playingClip && <ClipBanner clip={playingClip} onBack={backToEvent} />}
          <ResumeNote resume={resume} />
          <PurchaseNotice notice={state.purchase} dispatch={dispatch} />
          <PlayerToolbar event={event} playable={available && !!event.streamUrl} />
        </div>
        <div className="event-page__main">
          <EventDetails
            event={event}
            stats={scoresHidden ? undefined : stats.data}
            statsOffered={statsOffered && !scoresHidden}
          />
          {(statsOffered || !!event.teams) && <SpoilerSwitch eventId={event.id} />}
          {statsOffered && !scoresHidden && <EventStatsPanel event={event} stats={stats.data} />}
        </div>
        {/* Moments and clips are cut from what plays: nothing to tag before kick-off. */}
        {!event.isChannel && event.status !== "upcoming" && (
          <div className="event-page__panels">
            {event.isLive && available && <KeyPlaysPanel eventId={event.id} scoresHidden={scoresHidden} />}
            <MomentsPanel tags={personal ? { ...tags, tags: shownTags } : null} />
            {personal && !event.isClip && <MyClipsPanel clips={clips.data ?? []} isPending={clips.isLoading} />}
          </div>
        )}
        {event.isChannel && (
          <section className="event-panel event-page__wide" aria-labelledby="event-programme">
            <h2 id="event-programme" className="event-panel__title">
              {t("programme.title")}
            </h2>
            <ChannelProgramme channel={event} />
          </section>
        )}
        <EventLists event={event} />
      </article>
    </PlayerControlsContext.Provider>
  );
}

function EventScreen({
  eventId,
  mediaType,
  startAt,
}: {
  eventId: string;
  mediaType: MediaType | undefined;
  startAt: number | null;
}) {
  const lookup = useMemo<EventLookup>(() => ({ id: eventId, mediaType }), [eventId, mediaType]);
  const [state, dispatch] = useReducer(eventPageReducer, initialEventPageState);
  const eventQuery = useQuery({
    ...eventQueryOptions(lookup, useAudience(), useEventMapOptions()),
    // Kick-off time has passed: ask until the event is live (the socket usually says so first).
    refetchInterval: (query) =>
      state.startingSoon && query.state.data?.status === "upcoming" ? STARTING_SOON_POLL_MS : false,
  });
  const query = useEntityOrNotFound(eventQuery, mediaType ? "clip" : "event");
  const { reloadStream } = useEventRealtime(lookup, query.data, dispatch);

  // A failed reload keeps the event on screen (the stage says what failed); only a first load
  // that fails has nothing to show.
  if (query.data) {
    return (
      <EventView event={query.data} state={state} dispatch={dispatch} startAt={startAt} onRetryStream={reloadStream} />
    );
  }
  return <EventPageWaiting query={query} />;
}

/**
 * /events/:eventId (?media_type=highlight for highlights and clips; ?t= to start at a moment):
 * the player, or the countdown before kick-off, or the paywall; the event's details and stats,
 * its moments (timeline tags) and the viewer's clips, highlights and related videos, kept live
 * by the event room (spec §4). An unknown event shows the not-found screen with context event.
 */
export default function EventPage() {
  const { eventId = "" } = useParams();
  const [search] = useSearchParams();
  const requested = search.get("media_type");
  const mediaType = isClipMediaType(requested) ? requested : undefined;
  const startAt = parseStartAt(search.get("t"));
  return (
    <div className="page">
      {/* A new event is a new page: its state, room and player start afresh. */}
      <EventScreen key={`${eventId}|${mediaType ?? ""}`} eventId={eventId} mediaType={mediaType} startAt={startAt} />
    </div>
  );
}
