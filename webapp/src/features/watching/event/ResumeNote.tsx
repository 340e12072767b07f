import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { formatDuration } from "@/lib/kickoff";
import type { PlaybackResume } from "./usePlaybackPosition";
import "./ResumeNote.css";

/** How long the note stays once playback has resumed. */
export const RESUME_NOTE_MS = 12_000;

/** "Resumed at 12:34 — Start over", under the player for a while after it resumed a video. */
export function ResumeNote({ resume }: { resume: PlaybackResume }) {
  const { t } = useTranslation("event");
  const { resumedAt, dismiss } = resume;
  useEffect(() => {
    if (resumedAt === null) return;
    const timer = setTimeout(dismiss, RESUME_NOTE_MS);
    return () => clearTimeout(timer);
  }, [resumedAt, dismiss]);
  if (resumedAt === null) return null;
  return (
    <div className="event-resume-note" role="status">
      <p>{t("resume.resumed_at", { time: formatDuration(resumedAt) })}</p>
      <button type="button" className="btn" onClick={resume.startOver}>
        {t("resume.start_over")}
      </button>
    </div>
  );
}
