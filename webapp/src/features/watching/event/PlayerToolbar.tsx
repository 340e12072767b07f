import { useId, useRef, useState } from "react";
import { Link, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { useErrorText } from "@/api/errors";
import { clipRangeProblem } from "@/entities/clip";
import type { CatalogEvent } from "@/entities/event";
import { splitLocalePath } from "@/i18n/locales";
import { useLocalePath } from "@/i18n/useLocalePath";
import { useCurrentUser, useIsAuthenticated, useSession } from "@/session/store";
import { useAddToWatchlist } from "../api/addToWatchlist";
import { useCreateClip } from "../api/createClip";
import { useRemoveFromWatchlist } from "../api/removeFromWatchlist";
import { useSaveTag } from "../api/saveTag";
import { formatDuration } from "@/lib/kickoff";
import { type Announce, Announcer, useAnnouncer } from "./Announcer";
import { BookmarkIcon, ScissorsIcon, ShareIcon, TagIcon } from "./icons";
import { TitleForm } from "./ItemEditing";
import { usePlayerControls } from "./playerControls";
import { shareUrl } from "./share";
import { useStreamSeconds } from "./streamClock";

function useReturnPath(): string {
  const { pathname, search } = useLocation();
  return splitLocalePath(pathname).path + search;
}

function WatchlistButton({ event, announce }: { event: CatalogEvent; announce: Announce }) {
  const { t } = useTranslation("event");
  const errorText = useErrorText();
  const localePath = useLocalePath();
  const returnTo = useReturnPath();
  const signedIn = useIsAuthenticated();
  const saved = useSession((state) => state.selected.includes(event.id));
  const add = useAddToWatchlist();
  const remove = useRemoveFromWatchlist();

  if (!signedIn) {
    return (
      <Link
        className="btn event-toolbar__button"
        to={localePath(`/auth/login/?redirect=${encodeURIComponent(returnTo)}`)}
      >
        <BookmarkIcon /> {t("watchlist.add")}
      </Link>
    );
  }
  const busy = add.isPending || remove.isPending;
  const toggle = () => {
    const mutation = saved ? remove : add;
    mutation.mutate(event.id, {
      onSuccess: () => announce(t(saved ? "watchlist.removed" : "watchlist.added")),
      onError: (error) => announce(errorText(error), "alert"),
    });
  };
  return (
    <button type="button" className="btn event-toolbar__button" onClick={toggle} disabled={busy}>
      <BookmarkIcon filled={saved} /> {t(saved ? "watchlist.remove" : "watchlist.add")}
    </button>
  );
}

function SharePanel({ id, announce }: { id: string; announce: Announce }) {
  const { t } = useTranslation("event");
  const { pathname, search } = useLocation();
  const { clock } = usePlayerControls();
  const seconds = useStreamSeconds(clock);
  const [fromNow, setFromNow] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const startAt = fromNow ? seconds : null;
  const url = shareUrl(window.location.origin, pathname, search, startAt);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      announce(t("share.copied"));
    } catch {
      field.current?.select();
      announce(t("share.copy_manually"), "alert");
    }
  };
  const canShare = typeof navigator.share === "function";

  return (
    <div id={id} className="event-share">
      <label className="event-share__option">
        <input
          type="checkbox"
          checked={fromNow && seconds !== null}
          disabled={seconds === null}
          onChange={(event) => setFromNow(event.target.checked)}
        />
        {seconds === null ? t("share.from_start") : t("share.from_time", { time: formatDuration(seconds) })}
      </label>
      <label className="event-share__label" htmlFor={inputId}>
        {t("share.link")}
      </label>
      <div className="event-share__row">
        <input
          ref={field}
          id={inputId}
          className="event-form__input event-share__url"
          value={url}
          readOnly
          dir="ltr"
          onFocus={(event) => event.target.select()}
        />
        <button type="button" className="btn btn--primary" onClick={() => void copy()}>
          {t("share.copy")}
        </button>
        {canShare && (
          <button
            type="button"
            className="btn"
            onClick={() => void navigator.share({ url, title: document.title }).catch(() => undefined)}
          >
            {t("share.more")}
          </button>
        )}
      </div>
    </div>
  );
}

function ShareButton({ announce }: { announce: Announce }) {
  const { t } = useTranslation("event");
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <>
      <button
        type="button"
        className="btn event-toolbar__button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
      >
        <ShareIcon /> {t("share.button")}
      </button>
      {open && <SharePanel id={panelId} announce={announce} />}
    </>
  );
}

function TagMoment({ event, announce }: { event: CatalogEvent; announce: Announce }) {
  const { t } = useTranslation("event");
  const errorText = useErrorText();
  const user = useCurrentUser();
  const controls = usePlayerControls();
  const save = useSaveTag();
  const trigger = useRef<HTMLButtonElement>(null);
  const [at, setAt] = useState<number | null>(null);
  const [everyone, setEveryone] = useState(false);

  const start = () => {
    const time = controls.currentTime();
    if (time === null) {
      announce(t("moments.play_first"), "alert");
      return;
    }
    setAt(time);
    setEveryone(false);
  };
  const close = () => {
    setAt(null);
    trigger.current?.focus();
  };
  const submit = (title: string) => {
    if (at === null) return;
    save.mutate(
      { targetId: event.id, title, time: at, live: event.isLive, global: everyone },
      {
        onSuccess: () => {
          announce(t("moments.saved", { time: formatDuration(at) }));
          close();
        },
        onError: (error) => announce(errorText(error), "alert"),
      },
    );
  };

  return (
    <>
      <button
        ref={trigger}
        type="button"
        className="btn event-toolbar__button"
        aria-expanded={at !== null}
        onClick={start}
      >
        <TagIcon /> {t("moments.tag")}
      </button>
      {at !== null && (
        <div className="event-toolbar__form">
          <TitleForm
            label={t("moments.name_label", { time: formatDuration(at) })}
            submitLabel={t("moments.save")}
            busy={save.isPending}
            onSubmit={submit}
            onCancel={close}
          >
            {user?.canCreateGlobalTag && (
              <label className="event-form__check">
                <input type="checkbox" checked={everyone} onChange={(e) => setEveryone(e.target.checked)} />
                {t("moments.global")}
              </label>
            )}
          </TitleForm>
        </div>
      )}
    </>
  );
}

function ClipMarker({ event, announce }: { event: CatalogEvent; announce: Announce }) {
  const { t } = useTranslation("event");
  const errorText = useErrorText();
  const controls = usePlayerControls();
  const create = useCreateClip();
  const markIn = useRef<HTMLButtonElement>(null);
  const [range, setRange] = useState<{ start: number | null; end: number | null }>({ start: null, end: null });
  const problem = clipRangeProblem(range.start, range.end);
  const ready = problem === null;

  const mark = (side: "start" | "end") => {
    const time = controls.currentTime();
    if (time === null) {
      announce(t("clips.play_first"), "alert");
      return;
    }
    const next = { ...range, [side]: time };
    setRange(next);
    const issue = clipRangeProblem(next.start, next.end);
    if (issue === "order" || issue === "too_long") announce(t(`clips.problem_${issue}`), "alert");
    else announce(t(side === "start" ? "clips.marked_in" : "clips.marked_out", { time: formatDuration(time) }));
  };
  const reset = () => {
    setRange({ start: null, end: null });
    markIn.current?.focus();
  };
  const submit = (title: string) => {
    if (range.start === null || range.end === null) return;
    create.mutate(
      { eventId: event.id, title, start: range.start, end: range.end },
      {
        onSuccess: (clip) => {
          announce(t("clips.saved", { title: clip.title }));
          reset();
        },
        onError: (error) => announce(errorText(error), "alert"),
      },
    );
  };

  return (
    <>
      <div className="event-toolbar__group" role="group" aria-label={t("clips.maker")}>
        <button ref={markIn} type="button" className="btn event-toolbar__button" onClick={() => mark("start")}>
          <ScissorsIcon /> {t("clips.mark_in")}
          {range.start !== null && <span className="event-toolbar__time">{formatDuration(range.start)}</span>}
        </button>
        <button
          type="button"
          className="btn event-toolbar__button"
          onClick={() => mark("end")}
          disabled={range.start === null}
        >
          {t("clips.mark_out")}
          {range.end !== null && <span className="event-toolbar__time">{formatDuration(range.end)}</span>}
        </button>
      </div>
      {ready && range.start !== null && range.end !== null && (
        <div className="event-toolbar__form">
          <TitleForm
            label={t("clips.name_label", {
              from: formatDuration(range.start),
              to: formatDuration(range.end),
            })}
            submitLabel={t("clips.save")}
            busy={create.isPending}
            onSubmit={submit}
            onCancel={reset}
          />
        </div>
      )}
    </>
  );
}

/**
 * The controls under the player: watchlist, share (optionally from the current time), and for
 * signed-in viewers of an event they can watch, tagging the current moment and cutting a clip.
 * Channels have neither tags nor clips (spec §4).
 */
export function PlayerToolbar({ event, playable }: { event: CatalogEvent; playable: boolean }) {
  const { t } = useTranslation("event");
  const signedIn = useIsAuthenticated();
  const [message, announce] = useAnnouncer();
  const personal = signedIn && playable && !event.isChannel;
  return (
    <div className="event-toolbar">
      <div className="event-toolbar__buttons" role="group" aria-label={t("toolbar.label")}>
        <WatchlistButton event={event} announce={announce} />
        <ShareButton announce={announce} />
        {personal && <TagMoment event={event} announce={announce} />}
        {personal && !event.isClip && <ClipMarker event={event} announce={announce} />}
      </div>
      <Announcer message={message} className="event-toolbar__message" />
    </div>
  );
}
