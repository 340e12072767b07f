import { useId, useRef } from "react";
import { useTranslation } from "react-i18next";
import type { UserClip } from "@/entities/clip";
import { useDeleteClip } from "../api/deleteClip";
import { useRenameClip } from "../api/updateClip";
import { formatDuration } from "@/lib/kickoff";
import { type Announce, Announcer, useAnnouncer } from "./Announcer";
import { PlayIcon } from "./icons";
import { ItemRowEditing } from "./ItemRowEditing";
import { usePlayerControls } from "./playerControls";

function ClipRow({ clip, announce, onGone }: { clip: UserClip; announce: Announce; onGone: () => void }) {
  const { t } = useTranslation("event");
  const controls = usePlayerControls();
  const rename = useRenameClip();
  const remove = useDeleteClip(clip.eventId);
  const playing = controls.playingClipId === clip.id;
  const range = t("clips.range", { from: formatDuration(clip.startSeconds), to: formatDuration(clip.endSeconds) });

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
      <ItemRowEditing
        title={clip.title}
        texts={{
          renameLabel: t("clips.rename_label", { title: clip.title }),
          deleteQuestion: t("clips.delete_question", { title: clip.title }),
          renamed: (title) => t("clips.renamed", { title }),
          deleted: t("clips.deleted", { title: clip.title }),
        }}
        rename={{ busy: rename.isPending, run: (title) => rename.mutateAsync({ id: clip.id, title }) }}
        remove={{
          busy: remove.isPending,
          run: () =>
            remove.mutateAsync(clip.id).then(() => {
              if (playing) controls.backToEvent();
            }),
        }}
        announce={announce}
        onGone={onGone}
      />
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
