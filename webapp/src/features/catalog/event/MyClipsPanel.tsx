import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useErrorText } from "@/api/errors";
import type { UserClip } from "@/entities/clip";
import { useDeleteClip } from "../api/deleteClip";
import { useRenameClip } from "../api/updateClip";
import { formatDuration } from "../lib/kickoff";
import { Announcer, useAnnouncer } from "./Announcer";
import { PlayIcon } from "./icons";
import { ConfirmDelete, TitleForm } from "./ItemEditing";
import { usePlayerControls } from "./playerControls";

type Announce = ReturnType<typeof useAnnouncer>[1];

function ClipRow({ clip, announce, onGone }: { clip: UserClip; announce: Announce; onGone: () => void }) {
  const { t } = useTranslation("event");
  const errorText = useErrorText();
  const controls = usePlayerControls();
  const rename = useRenameClip();
  const remove = useDeleteClip(clip.eventId);
  const [mode, setMode] = useState<"view" | "rename" | "delete">("view");
  const renameButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  const playing = controls.playingClipId === clip.id;
  const range = t("clips.range", { from: formatDuration(clip.startSeconds), to: formatDuration(clip.endSeconds) });

  useEffect(() => {
    if (mode === "view" && returnFocus.current) {
      returnFocus.current = false;
      renameButton.current?.focus();
    }
  }, [mode]);
  const close = () => {
    returnFocus.current = true;
    setMode("view");
  };

  return (
    <li className={`event-list__item${playing ? " event-list__item--current" : ""}`}>
      <button
        type="button"
        className="event-list__main event-clip"
        onClick={() => controls.playClip(clip)}
        aria-current={playing || undefined}
        disabled={!clip.streamUrl}
      >
        <PlayIcon />
        <span className="visually-hidden">{t("clips.play")}</span>{" "}
        <span className="event-clip__title" dir="auto">
          {clip.title}
        </span>{" "}
        <span className="event-clip__meta">
          {formatDuration(clip.durationSeconds)} · {range}
        </span>
        {playing && (
          <>
            {" "}
            <span className="event-moment__badge">{t("clips.playing")}</span>
          </>
        )}
      </button>
      {mode === "view" && (
        <span className="event-list__actions">
          <button ref={renameButton} type="button" className="btn btn--ghost" onClick={() => setMode("rename")}>
            {t("form.rename")} <span className="visually-hidden">{clip.title}</span>
          </button>
          <button type="button" className="btn btn--ghost" onClick={() => setMode("delete")}>
            {t("form.delete")} <span className="visually-hidden">{clip.title}</span>
          </button>
        </span>
      )}
      {mode === "rename" && (
        <TitleForm
          label={t("clips.rename_label", { title: clip.title })}
          initial={clip.title}
          submitLabel={t("form.save")}
          busy={rename.isPending}
          onCancel={close}
          onSubmit={(title) =>
            rename.mutate(
              { id: clip.id, title },
              {
                onSuccess: () => {
                  announce(t("clips.renamed", { title }));
                  close();
                },
                onError: (error) => announce(errorText(error), "alert"),
              },
            )
          }
        />
      )}
      {mode === "delete" && (
        <ConfirmDelete
          question={t("clips.delete_question", { title: clip.title })}
          busy={remove.isPending}
          onCancel={close}
          onConfirm={() =>
            // Not mutate()'s own callbacks: the reloaded list may remove this row first (see MomentsPanel).
            remove.mutateAsync(clip.id).then(
              () => {
                if (playing) controls.backToEvent();
                announce(t("clips.deleted", { title: clip.title }));
                onGone();
              },
              (error: unknown) => {
                announce(errorText(error), "alert");
                close();
              },
            )
          }
        />
      )}
    </li>
  );
}

/**
 * The viewer's own clips of this event (spec §6: only for signed-in viewers), newest first: each
 * plays in the page's player, and can be renamed or deleted. A list that fails to load reads as
 * empty (spec §8).
 */
export function MyClipsPanel({ clips, isPending }: { clips: UserClip[]; isPending: boolean }) {
  const { t } = useTranslation("event");
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [message, announce] = useAnnouncer();
  return (
    <section className="event-panel" aria-labelledby={headingId}>
      <h2 id={headingId} ref={heading} className="event-panel__title" tabIndex={-1}>
        {t("clips.title")}
      </h2>
      {isPending ? (
        <p className="event-panel__hint">{t("clips.loading")}</p>
      ) : clips.length === 0 ? (
        <p className="event-panel__hint">{t("clips.empty")}</p>
      ) : (
        <ol className="event-list" aria-labelledby={headingId}>
          {clips.map((clip) => (
            <ClipRow key={clip.id} clip={clip} announce={announce} onGone={() => heading.current?.focus()} />
          ))}
        </ol>
      )}
      <Announcer message={message} />
    </section>
  );
}
