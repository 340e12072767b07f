import { useEffect, useId, useRef, type ReactNode } from "react";
import { FormAlert } from "@/ui/form/FormAlert";

interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  pending: boolean;
  /** Why the last attempt failed, shown above the buttons. */
  error?: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * A modal question before something that cannot be undone. Focus starts on Cancel, Escape
 * cancels, and the page behind cannot be reached while it is open (a native modal dialog).
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  cancelLabel,
  pending,
  error,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    // Browsers without modal dialogs (and jsdom) still show it, as an open dialog.
    if (typeof element.showModal === "function" && !element.open) element.showModal();
    else element.setAttribute("open", "");
    cancel.current?.focus();
    return () => {
      if (typeof element.close === "function") element.close();
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      className="account-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault(); // closing is the parent's decision (it unmounts the dialog)
        if (!pending) onCancel();
      }}
    >
      <h2 id={titleId} className="account-dialog__title">
        {title}
      </h2>
      {children}
      {error && <FormAlert tone="danger">{error}</FormAlert>}
      <div className="account-dialog__actions">
        <button ref={cancel} type="button" className="btn" onClick={onCancel} disabled={pending}>
          {cancelLabel}
        </button>
        <button
          type="button"
          className="btn account-button--danger"
          onClick={onConfirm}
          disabled={pending}
          aria-busy={pending || undefined}
        >
          {pending && <span className="form-spinner" aria-hidden="true" />}
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
