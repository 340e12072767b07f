import { useCallback, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { SurveyRecord } from "@/entities/user";
import { useLocale } from "@/i18n/useLocalePath";
import { analytics, type AnalyticsProperties } from "@/lib/analytics";
import { useAppConfig } from "@/lib/config";
import { notify } from "@/lib/notify";
import { useCurrentUser } from "@/session/store";
import { saveSurveyRecord } from "./api/saveSurveyRecord";
import {
  isSubmittedMessage,
  isSuppressedRoute,
  isSurveyEligible,
  promptDelay,
  recordOutcome,
  surveyFrameUrl,
  type SurveyOutcome,
} from "./eligibility";
import { pausePlayingVideos, type PausedPlayback } from "./playback";
import "./Survey.css";

// setTimeout holds at most 2^31 - 1 ms (~24.8 days); a longer wait is re-checked when it ends.
const MAX_TIMEOUT = 2 ** 31 - 1;

type Stage = "waiting" | "start" | "survey";

/**
 * The user-experience survey (spec §2, §4, §5, §9): on an allowed route, `show_after_seconds`
 * after the page opened (or once the viewer becomes eligible), the start dialog asks; Later asks
 * again `skip_delay_minutes` later, Start opens the form (600 × 750) until it reports success or
 * the viewer closes it. Each outcome is saved in the profile's options. A playing video pauses
 * while the survey shows.
 */
export function SurveyPrompt({ routeName }: { routeName: string | undefined }) {
  const { t } = useTranslation("survey");
  const { survey } = useAppConfig();
  const user = useCurrentUser();
  const [stage, setStage] = useState<Stage>("waiting");
  const [recheck, setRecheck] = useState(0);
  // Outcomes saved (or being saved) in this page: a failed save must not ask again at once.
  const [local, setLocal] = useState<SurveyRecord | undefined>(undefined);
  const playback = useRef<PausedPlayback | null>(null);
  const suppressed = isSuppressedRoute(routeName);
  const stored = user?.options[survey.name];
  const record = local ?? stored;
  const added = user?.added;
  const userId = user?.id;

  useEffect(() => {
    if (stage !== "waiting" || suppressed || !userId || !added) return;
    const viewer = { added, options: record ? { [survey.name]: record } : {} };
    const delay = promptDelay(survey, viewer, Date.now());
    if (delay === null) return;
    const timer = setTimeout(
      () => {
        if (!isSurveyEligible(survey, viewer, routeName, Date.now())) {
          setRecheck((count) => count + 1);
          return;
        }
        playback.current = pausePlayingVideos();
        analytics.track("survey_shown", { survey: survey.name });
        setStage("start");
      },
      Math.min(delay, MAX_TIMEOUT),
    );
    return () => clearTimeout(timer);
  }, [stage, suppressed, userId, added, record, survey, routeName, recheck]);

  // Signed out while it shows: it goes, and the video plays on.
  useEffect(() => {
    if (!userId && stage !== "waiting") {
      playback.current?.resume({ evenInFullscreen: false });
      playback.current = null;
      setStage("waiting"); // eslint-disable-line react-hooks/set-state-in-effect -- the session ended under it
    }
  }, [userId, stage]);

  const finish = useCallback(
    (outcome: SurveyOutcome, properties: AnalyticsProperties = {}) => {
      const next = recordOutcome(survey.name, record, outcome, new Date());
      setLocal(next);
      setStage("waiting");
      playback.current?.resume({ evenInFullscreen: outcome === "submitted" });
      playback.current = null;
      analytics.track(`survey_${outcome}`, { survey: survey.name, ...properties });
      saveSurveyRecord(survey.name, next).catch((error: unknown) =>
        console.error("Could not save the survey record:", error),
      );
    },
    [record, survey.name],
  );

  if (!user || !survey.form_url) return null;
  if (stage === "start") return <StartDialog onLater={() => finish("skipped")} onStart={() => setStage("survey")} />;
  if (stage === "survey")
    return (
      <SurveyDialog
        formUrl={survey.form_url}
        onClose={() => finish("closed")}
        onSubmitted={(answers) => {
          finish("submitted", answers);
          void notify.success(t("thanks"));
        }}
      />
    );
  return null;
}

function StartDialog({ onLater, onStart }: { onLater: () => void; onStart: () => void }) {
  const { t } = useTranslation("survey");
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const textId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="survey-start"
      aria-labelledby={titleId}
      aria-describedby={textId}
      data-testid="survey-start"
      onCancel={(event) => {
        event.preventDefault(); // Escape is Later
        onLater();
      }}
    >
      <div className="survey-start__body">
        <h2 id={titleId} className="survey-start__title">
          {t("start.title")}
        </h2>
        <p id={textId} className="survey-start__text">
          {t("start.text")}
        </p>
        <div className="survey-start__actions">
          <button type="button" className="btn btn--ghost" onClick={onLater}>
            {t("start.later")}
          </button>
          {/* eslint-disable-next-line jsx-a11y/no-autofocus -- the dialog's main action, as a modal should */}
          <button type="button" className="btn btn--primary" onClick={onStart} autoFocus>
            {t("start.start")}
          </button>
        </div>
      </div>
    </dialog>
  );
}

function SurveyDialog({
  formUrl,
  onClose,
  onSubmitted,
}: {
  formUrl: string;
  onClose: () => void;
  onSubmitted: (answers: AnalyticsProperties) => void;
}) {
  const { t } = useTranslation("survey");
  const locale = useLocale();
  const dialog = useRef<HTMLDialogElement>(null);
  const frame = useRef<HTMLIFrameElement>(null);
  const titleId = useId();
  const src = surveyFrameUrl(formUrl, locale, window.location.origin);
  const frameOrigin = src.origin;

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  // Only the form in this dialog, from the form's own origin, may say it was submitted.
  useEffect(() => {
    const listen = (event: MessageEvent) => {
      if (event.origin !== frameOrigin || event.source !== frame.current?.contentWindow) return;
      if (!isSubmittedMessage(event.data)) return;
      const answers = (event.data as { answers?: { rating?: unknown; comment?: unknown } }).answers ?? {};
      onSubmitted({
        rating: typeof answers.rating === "number" ? answers.rating : null,
        comment: typeof answers.comment === "string" ? answers.comment : null,
      });
    };
    window.addEventListener("message", listen);
    return () => window.removeEventListener("message", listen);
  }, [frameOrigin, onSubmitted]);

  return (
    <dialog
      ref={dialog}
      className="survey-dialog"
      aria-labelledby={titleId}
      data-testid="survey-dialog"
      onCancel={(event) => {
        event.preventDefault(); // Escape is the close control
        onClose();
      }}
    >
      <div className="survey-dialog__layout">
        <div className="survey-dialog__header">
          <h2 id={titleId} className="survey-dialog__title">
            {t("dialog.title")}
          </h2>
          <button type="button" className="survey-dialog__close" onClick={onClose} aria-label={t("dialog.close")}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
        <iframe
          ref={frame}
          className="survey-dialog__frame"
          src={src.href}
          title={t("dialog.frame")}
          sandbox="allow-scripts allow-forms allow-same-origin allow-popups"
        />
      </div>
    </dialog>
  );
}
