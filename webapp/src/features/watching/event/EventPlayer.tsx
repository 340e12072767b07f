import {
  forwardRef,
  useCallback,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from "react";
import { useTranslation } from "react-i18next";
import type { CatalogEvent } from "@/entities/event";
import { useScoresHidden } from "@/session/spoilers";
import { useAppConfig } from "@/lib/config";
import { Player, parseSignedUrl, streamClaims, type PlayerHandle, type PlayerSource } from "@/ui/player";
import { fetchEvent } from "../api/getEvent";
import { useEventMapOptions } from "@/session/catalog/viewer";

export interface EventPlayerHandle {
  /** Where playback is, in seconds of the event's stream: VOD = media time; live = seconds since the stream's origin (the event's kickoff). null before playback starts. */
  streamTime(): number | null;
  /** The live edge in stream seconds (live only), else the duration. */
  streamEnd(): number | null;
  seekTo(streamSeconds: number): void;
  play(): Promise<void>;
  pause(): void;
  /**
   * Play another stream in this player (a user clip), or back to the event's own with null.
   * `renew`, when given, fetches a fresh address for the clip once its token nears expiry.
   */
  playClip(clip: { url: string; title: string; renew?: () => Promise<string | null> } | null): void;
}

export interface EventPlayerProps {
  event: CatalogEvent;
  /** Timeline tags, in stream seconds. */
  markers?: { id: string; time: number; label: string; global: boolean }[];
  /** Stream seconds to start at (?t= share links). */
  startAt?: number | null;
  /** Stream seconds as playback advances, about four times a second at most. */
  onStreamTimeChange?: (seconds: number) => void;
  /** Shown over the video while the stream sends nothing for a reason the page knows (its feed is away). */
  notice?: ReactNode;
  /** What plays instead of the event (`playClip`) played to its end: a catch-up goes live then. */
  onClipEnded?: () => void;
}

type View = "main" | "pano";
type Clip = Parameters<EventPlayerHandle["playClip"]>[0];

/**
 * Where a live stream's time counts from: the kickoff its signed address was cut at (`from-<start>`
 * in its path, the server's own), else the event's kickoff.
 */
function originOf(url: string, event: CatalogEvent): number {
  const start = streamClaims(url)?.start;
  return start ? start * 1000 : event.startsAt.getTime();
}

function isLiveStream(url: string, event: CatalogEvent): boolean {
  const path = parseSignedUrl(url)?.path;
  return event.isLive || (path !== undefined && path.startsWith("live/"));
}

/**
 * The event page's player: the event's stream (or its panoramic view, or a viewer's clip of it),
 * its pre-roll, and a new signed address from a fresh event answer before the token expires.
 */
export const EventPlayer = forwardRef<EventPlayerHandle, EventPlayerProps>(function EventPlayer(
  { event, markers, startAt = null, onStreamTimeChange, notice, onClipEnded },
  ref,
) {
  const { t } = useTranslation("player");
  const mapOptions = useEventMapOptions();
  const scoresHidden = useScoresHidden(event.id);
  const { ads, qoe } = useAppConfig();
  const adDeadlines = useMemo(
    () => ({ vastMs: ads.vast_deadline_ms, startMs: ads.start_deadline_ms }),
    [ads.vast_deadline_ms, ads.start_deadline_ms],
  );
  const qoeSettings = useMemo(
    () => ({ eventId: event.id, sampleRate: qoe.sample_rate, batchSeconds: qoe.batch_seconds }),
    [event.id, qoe.sample_rate, qoe.batch_seconds],
  );
  const player = useRef<PlayerHandle>(null);
  const [view, setView] = useState<View>("main");
  const [clip, setClip] = useState<Clip>(null);
  /** Where the next stream loaded begins: the share link's time first, then the view switched from. */
  const [loadAt, setLoadAt] = useState<number | null>(startAt);
  const eventPosition = useRef<number | null>(null);

  // A new ?t= while the page is open moves playback there.
  const firstStartAt = useRef(startAt);
  useEffect(() => {
    if (startAt === null || startAt === firstStartAt.current) return;
    firstStartAt.current = startAt;
    player.current?.seekTo(startAt);
  }, [startAt]);

  const viewing = view === "pano" && event.panoStreamUrl ? "pano" : "main";
  const eventUrl = viewing === "pano" ? event.panoStreamUrl : event.streamUrl;
  const source = useMemo<PlayerSource | null>(() => {
    if (clip) return { url: clip.url, live: false, title: clip.title };
    if (!eventUrl) return null;
    return {
      url: eventUrl,
      live: isLiveStream(eventUrl, event),
      originMs: originOf(eventUrl, event),
      title: event.title,
    };
  }, [clip, eventUrl, event]);

  const current = useRef({ clip, viewing, event, mapOptions });
  useEffect(() => {
    current.current = { clip, viewing, event, mapOptions };
  });

  /** A fresh signed address for what plays now: the clip's own renewal, else a new event answer. */
  const renewSource = useCallback(async (): Promise<string | null> => {
    const { clip: playing, viewing: shown, event: watched, mapOptions: options } = current.current;
    if (playing) return playing.renew ? playing.renew() : null;
    const lookup = { id: watched.id, mediaType: watched.isClip ? watched.mediaType : undefined };
    const fresh = await fetchEvent(lookup, options);
    return shown === "pano" ? fresh.panoStreamUrl : fresh.streamUrl;
  }, []);

  useImperativeHandle(
    ref,
    () => ({
      streamTime: () => player.current?.streamTime() ?? null,
      streamEnd: () => player.current?.streamEnd() ?? null,
      seekTo: (seconds) => player.current?.seekTo(seconds),
      play: () => player.current?.play() ?? Promise.resolve(),
      pause: () => player.current?.pause(),
      playClip: (next) => {
        const playingClip = current.current.clip;
        if (next && !playingClip) eventPosition.current = player.current?.streamTime() ?? null;
        // Back from a clip: an archived game resumes where it was, a live one at live.
        setLoadAt(next ? null : current.current.event.isLive ? null : eventPosition.current);
        setClip(next);
      },
    }),
    [],
  );

  const switchView = () => {
    setLoadAt(player.current?.streamTime() ?? null);
    setView(viewing === "pano" ? "main" : "pano");
  };

  const viewToggle =
    event.panoStreamUrl && !clip ? (
      <button
        type="button"
        className="player__button"
        aria-pressed={viewing === "pano"}
        title={viewing === "pano" ? t("view.switch_to_main") : t("view.switch_to_pano")}
        onClick={switchView}
      >
        {t("view.pano")}
      </button>
    ) : null;

  return (
    <Player
      ref={player}
      className="event-player"
      source={source}
      poster={event.posterUrl}
      vastUrl={event.vastUrl}
      adKey={`event:${event.id}`}
      adDeadlines={adDeadlines}
      startAt={loadAt}
      markers={markers}
      // A match's length gives overtime away; a clip's (a viewer's own, or a highlight) does not.
      hideDuration={scoresHidden && !clip && !event.isClip}
      renewSource={renewSource}
      onStreamTimeChange={onStreamTimeChange}
      onEnded={clip ? onClipEnded : undefined}
      extraControls={viewToggle}
      // A clip of the viewer's plays from its recording: the live feed's state is not its own.
      notice={clip ? null : notice}
      qoe={qoeSettings}
    />
  );
});
