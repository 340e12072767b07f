import { useId, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { eventPath } from "@/entities/event";
import type { UserClip } from "@/entities/clip";
import { useLocalePath } from "@/i18n/useLocalePath";
import { FallbackImage } from "@/ui/images/FallbackImage";

/** The clip title limit of the contract's ClipUpdate. */
export const CLIP_TITLE_MAX = 200;

interface Props {
  clip: UserClip;
  onRename: (clip: UserClip, title: string) => void;
  onDelete: (clip: UserClip) => void;
}

function duration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}

/** One of the viewer's clips: a link to play it, renaming in place, deleting after a confirmation. */
export function ClipItem({ clip, onRename, onDelete }: Props) {
  const { t } = useTranslation("following");
  const localePath = useLocalePath();
  const inputId = useId();
  const [mode, setMode] = useState<"view" | "rename" | "confirm">("view");
  const [title, setTitle] = useState(clip.title);
  const trimmed = title.trim();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed || trimmed.length > CLIP_TITLE_MAX) return;
    if (trimmed !== clip.title) onRename(clip, trimmed);
    setMode("view");
  };

  return (
    <li className="event-tile clip-item">
      <Link
        className="event-tile__link"
        to={localePath(eventPath({ id: clip.id, mediaType: clip.mediaType, isChannel: false }))}
      >
        <span className="event-tile__media">
          <FallbackImage
            className="event-tile__poster"
            src={clip.posterUrl}
            alt=""
            fallback="banner"
            width={640}
            height={360}
          />
          <span className="event-tile__badge event-tile__badge--duration">{duration(clip.durationSeconds)}</span>
        </span>
        <span className="event-tile__title" dir="auto">
          {clip.title}
        </span>
      </Link>
      {mode === "rename" ? (
        <form className="clip-item__form" onSubmit={submit}>
          <label htmlFor={inputId}>{t("clips.newTitle")}</label>
          <input
            id={inputId}
            value={title}
            maxLength={CLIP_TITLE_MAX}
            required
            aria-invalid={!trimmed || undefined}
            onChange={(event) => setTitle(event.target.value)}
          />
          <button type="submit" className="btn btn--primary" disabled={!trimmed}>
            {t("clips.save")}
          </button>
          <button type="button" className="btn btn--ghost" onClick={() => setMode("view")}>
            {t("clips.cancel")}
          </button>
        </form>
      ) : mode === "confirm" ? (
        <div className="clip-item__actions" role="group" aria-label={t("clips.confirmDelete", { name: clip.title })}>
          <span>{t("clips.confirmDelete", { name: clip.title })}</span>
          <button type="button" className="btn btn--primary" onClick={() => onDelete(clip)}>
            {t("clips.delete")}
          </button>
          <button type="button" className="btn btn--ghost" onClick={() => setMode("view")}>
            {t("clips.cancel")}
          </button>
        </div>
      ) : (
        <div className="clip-item__actions">
          <button
            type="button"
            className="btn btn--ghost"
            aria-label={t("clips.renameNamed", { name: clip.title })}
            onClick={() => {
              setTitle(clip.title);
              setMode("rename");
            }}
          >
            {t("clips.rename")}
          </button>
          <button
            type="button"
            className="btn btn--ghost"
            aria-label={t("clips.deleteNamed", { name: clip.title })}
            onClick={() => setMode("confirm")}
          >
            {t("clips.delete")}
          </button>
        </div>
      )}
    </li>
  );
}
