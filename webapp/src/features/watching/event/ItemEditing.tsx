import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";

/** Escape closes a form or question, as Cancel does. */
function escapeTo(event: KeyboardEvent, cancel: () => void) {
  if (event.key !== "Escape") return;
  event.preventDefault();
  cancel();
}

/** Titles of tags and clips: the server takes up to 200 characters. */
export const TITLE_MAX_LENGTH = 200;

/**
 * A title form in place: the field takes focus when it opens, Escape cancels, and focus goes back
 * where it came from (the caller's button) when it closes.
 */
export function TitleForm({
  label,
  initial = "",
  submitLabel,
  busy,
  onSubmit,
  onCancel,
  children,
}: {
  label: string;
  initial?: string;
  submitLabel: string;
  busy: boolean;
  onSubmit: (title: string) => void;
  onCancel: () => void;
  children?: React.ReactNode;
}) {
  const { t } = useTranslation("event");
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [title, setTitle] = useState(initial);
  const [invalid, setInvalid] = useState(false);

  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = title.trim();
    if (!trimmed) {
      setInvalid(true);
      input.current?.focus();
      return;
    }
    onSubmit(trimmed);
  };

  return (
    <form className="event-form" onSubmit={submit} noValidate>
      <label className="event-form__label" htmlFor={id}>
        {label}
      </label>
      <input
        ref={input}
        id={id}
        className="event-form__input"
        value={title}
        maxLength={TITLE_MAX_LENGTH}
        dir="auto"
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `${id}-error` : undefined}
        onKeyDown={(event) => escapeTo(event, onCancel)}
        onChange={(event) => {
          setTitle(event.target.value);
          if (invalid && event.target.value.trim()) setInvalid(false);
        }}
      />
      {invalid && (
        <p id={`${id}-error`} className="event-form__error">
          {t("form.title_required")}
        </p>
      )}
      {children}
      <div className="event-form__actions">
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {submitLabel}
        </button>
        <button type="button" className="btn btn--ghost" onClick={onCancel}>
          {t("form.cancel")}
        </button>
      </div>
    </form>
  );
}

/** "Delete “Goal”?" with the two answers; the confirming button takes focus. */
export function ConfirmDelete({
  question,
  busy,
  onConfirm,
  onCancel,
}: {
  question: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation("event");
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => confirm.current?.focus(), []);
  return (
    <div className="event-confirm" role="group" aria-label={question}>
      <p className="event-confirm__question" dir="auto">
        {question}
      </p>
      <button
        ref={confirm}
        type="button"
        className="btn event-confirm__delete"
        disabled={busy}
        onClick={onConfirm}
        onKeyDown={(event) => escapeTo(event, onCancel)}
      >
        {t("form.delete")}
      </button>
      <button
        type="button"
        className="btn btn--ghost"
        onClick={onCancel}
        onKeyDown={(event) => escapeTo(event, onCancel)}
      >
        {t("form.keep")}
      </button>
    </div>
  );
}
