import "./form.css";
import { useId, useState, type InputHTMLAttributes, type ReactNode, type Ref } from "react";
import { useTranslation } from "react-i18next";

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "id"> & { ref?: Ref<HTMLInputElement> };

interface TextFieldProps extends InputProps {
  label: string;
  error?: string;
  hint?: string;
  /** A control shown beside the label (the password toggle), given the label's and input's ids. */
  action?: (ids: { inputId: string; labelId: string }) => ReactNode;
}

/**
 * A labelled input whose hint and error are tied to it (aria-describedby), marked
 * aria-invalid while it has an error. Spread react-hook-form's `register()` into it.
 */
export function TextField({ label, error, hint, action, className, ...input }: TextFieldProps) {
  const id = useId();
  const labelId = `${id}-label`;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={["form-field", className].filter(Boolean).join(" ")}>
      <div className="form-field__head">
        <label id={labelId} className="form-field__label" htmlFor={id}>
          {label}
        </label>
        {action?.({ inputId: id, labelId })}
      </div>
      <input
        id={id}
        className="form-field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...input}
      />
      {hint && (
        <p id={hintId} className="form-field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="form-field__error">
          {error}
        </p>
      )}
    </div>
  );
}

/** A password input with a show/hide toggle. */
export function PasswordField(props: Omit<TextFieldProps, "type">) {
  const { t } = useTranslation("common");
  const [visible, setVisible] = useState(false);
  // Named "Show" and described by the field's label: its name stays short, so the label finds only the input.
  const toggle = ({ inputId, labelId }: { inputId: string; labelId: string }) => (
    <button
      type="button"
      className="form-field__toggle"
      aria-pressed={visible}
      aria-controls={inputId}
      aria-describedby={labelId}
      onClick={() => setVisible((shown) => !shown)}
    >
      {t("form.show")}
    </button>
  );
  return <TextField {...props} type={visible ? "text" : "password"} action={toggle} />;
}
