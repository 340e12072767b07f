import { useId, type ComponentType, type CSSProperties } from "react";
import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { accessOf, eventPath, type CatalogEvent } from "@/entities/event";
import { withoutScore } from "@/entities/spoilers";
import { useLocalePath } from "@/i18n/useLocalePath";
import { useScoresHidden } from "@/session/spoilers";
import { CloseIcon } from "@/ui/icons";
import { useWatchedEvent } from "../api/event";
import { FailedNote } from "./FailedNote";
import { ExpandIcon, ShrinkIcon, SoundIcon } from "./icons";
import type { TilePlacement } from "./layout";
import { TileCaption } from "./TileCaption";
import { TileVideo } from "./TileVideo";
import { useTileRealtime } from "./useTileRealtime";

/** What a tile shows for an event the viewer may not watch: the ways to watch it (the app gives it). */
export type PaywallComponent = ComponentType<{ event: CatalogEvent }>;

export interface TileProps {
  id: string;
  /** 1 to 4: its key, and its place in the address. */
  number: number;
  placement: TilePlacement;
  /** Another tile is in full view. */
  hidden: boolean;
  large: boolean;
  audible: boolean;
  fullView: boolean;
  /** How many tiles share the bandwidth now. */
  sharing: number;
  Paywall: PaywallComponent;
  onListen: () => void;
  onToggleFullView: () => void;
  onRemove: () => void;
  onSoundRefused: () => void;
}

function gridArea(placement: TilePlacement): CSSProperties {
  return {
    gridColumn: `${placement.column} / span ${placement.columnSpan}`,
    gridRow: `${placement.row} / span ${placement.rowSpan}`,
  };
}

/**
 * One event of multiview: its title and score, what it plays (muted unless it has the sound), or
 * its paywall when the viewer may not watch it, or why nothing plays; with the buttons to give it
 * the sound (the whole picture is one), to show it in full view and to take it off.
 */
export function Tile(props: TileProps) {
  const { id, number, placement, hidden, large, audible, fullView, sharing, Paywall } = props;
  const { t } = useTranslation("watching");
  const localePath = useLocalePath();
  const titleId = useId();
  const { query, renewStream } = useWatchedEvent(id);
  const event = query.data;
  useTileRealtime(id, event?.status, () => void query.refetch());
  const scoresHidden = useScoresHidden(id);
  const title = event
    ? scoresHidden
      ? withoutScore(event.title)
      : event.title
    : t("multiview.tile.number", { number });

  let body: React.ReactNode;
  if (query.isPending) {
    body = (
      <p className="mv-tile__note" role="status">
        {t("multiview.loading")}
      </p>
    );
  } else if (!event) {
    body = (
      <FailedNote className="mv-tile__note" message={t("multiview.tile.failed")} onRetry={() => void query.refetch()} />
    );
  } else if (accessOf(event).kind !== "available") {
    body = (
      <div className="mv-tile__locked">
        <Paywall event={event} />
      </div>
    );
  } else if (!event.isLive || !event.streamUrl) {
    body = (
      <div className="mv-tile__note">
        <p>{t(event.isLive ? "event:stage.stream_soon" : "multiview.tile.not_live")}</p>
        <Link to={localePath(eventPath(event))}>{t("multiview.tile.open_event")}</Link>
      </div>
    );
  } else {
    body = (
      <>
        <TileVideo
          eventId={id}
          url={event.streamUrl}
          live
          poster={event.posterUrl}
          label={title}
          muted={!audible}
          sharing={sharing}
          renewStream={renewStream}
          onSoundRefused={props.onSoundRefused}
        />
        {event.liveFeed && (
          <p className="mv-tile__feed" role="status">
            {t(`event:stage.live_feed.${event.liveFeed}`)}
          </p>
        )}
        <button type="button" className="mv-tile__listen" aria-pressed={audible} onClick={props.onListen}>
          <span className="visually-hidden">{t("multiview.tile.listen", { title })}</span>
        </button>
      </>
    );
  }

  return (
    <li
      className="mv-tile"
      style={gridArea(placement)}
      hidden={hidden}
      aria-labelledby={titleId}
      data-event-id={id}
      data-audible={audible || undefined}
      data-large={large || undefined}
    >
      <div className="mv-tile__bar">
        <span className="mv-tile__number" aria-hidden="true">
          {number}
        </span>
        {event ? (
          <TileCaption event={event} number={number} id={titleId} />
        ) : (
          <h2 id={titleId} className="mv-tile__title">
            {title}
          </h2>
        )}
        {audible && (
          <span className="mv-tile__sound">
            <SoundIcon />
            {t("multiview.tile.sound_on")}
          </span>
        )}
        <button
          type="button"
          className="mv-tile__action"
          aria-label={t(fullView ? "multiview.tile.back_to_grid" : "multiview.tile.full_view", { title })}
          title={t(fullView ? "multiview.tile.back_to_grid" : "multiview.tile.full_view", { title })}
          onClick={props.onToggleFullView}
        >
          {fullView ? <ShrinkIcon /> : <ExpandIcon />}
        </button>
        <button
          type="button"
          className="mv-tile__action"
          aria-label={t("multiview.tile.remove", { title })}
          title={t("multiview.tile.remove", { title })}
          onClick={props.onRemove}
        >
          <CloseIcon size={16} />
        </button>
      </div>
      <div className="mv-tile__stage">{body}</div>
    </li>
  );
}
