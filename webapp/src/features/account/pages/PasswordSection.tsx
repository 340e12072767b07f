import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { isApiError } from "@/api/client";
import { useErrorText } from "@/api/errors";
import { useLocalePath } from "@/i18n/useLocalePath";
import { FormAlert } from "@/ui/form/FormAlert";
import { SubmitButton } from "@/ui/form/SubmitButton";
import { PasswordField } from "@/ui/form/TextField";
import { useChangePassword } from "../api/changePassword";
import { useEndOtherSessions } from "../api/endOtherSessions";
import "./sections.css";

/** NewPassword in openapi.yaml. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

interface PasswordFormValues {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

const EMPTY: PasswordFormValues = { currentPassword: "", newPassword: "", confirmPassword: "" };

/**
 * /account/password: a new password, given the current one. This session stays signed in;
 * afterwards the viewer may sign out the account's other sessions.
 */
export default function PasswordSection() {
  const { t } = useTranslation("account");
  const localePath = useLocalePath();
  const errorText = useErrorText();
  const change = useChangePassword();
  /** Other sessions still signed in after the change; null before a change. */
  const [otherSessions, setOtherSessions] = useState<number | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm<PasswordFormValues>({ defaultValues: EMPTY });

  const onSubmit = async ({ currentPassword, newPassword }: PasswordFormValues) => {
    setOtherSessions(null);
    try {
      const others = await change.mutateAsync({ currentPassword, newPassword });
      reset(EMPTY);
      setOtherSessions(others);
    } catch (error) {
      if (isApiError(error, "wrong_password")) {
        setError("currentPassword", { message: errorText(error) }, { shouldFocus: true });
      } else if (isApiError(error, "weak_password")) {
        setError("newPassword", { message: errorText(error) }, { shouldFocus: true });
      } else if (
        isApiError(error, "validation_error") &&
        (error.fields?.new_password || error.fields?.current_password)
      ) {
        if (error.fields.current_password)
          setError("currentPassword", { message: error.fields.current_password }, { shouldFocus: true });
        if (error.fields.new_password)
          setError(
            "newPassword",
            { message: error.fields.new_password },
            { shouldFocus: !error.fields.current_password },
          );
      } else {
        setError("root.server", { message: errorText(error) });
      }
    }
  };

  return (
    <>
      <h2>{t("sections.password")}</h2>
      <p className="account-intro">{t("password.intro")}</p>
      {otherSessions !== null && <PasswordChanged otherSessions={otherSessions} onDone={() => setOtherSessions(0)} />}
      <form className="form-form account-form account-form--narrow" onSubmit={handleSubmit(onSubmit)} noValidate>
        {errors.root?.server?.message && <FormAlert tone="danger">{errors.root.server.message}</FormAlert>}
        <PasswordField
          label={t("password.fields.current")}
          autoComplete="current-password"
          error={errors.currentPassword?.message}
          {...register("currentPassword", { required: t("password.validation.current_required") })}
        />
        <PasswordField
          label={t("password.fields.new")}
          autoComplete="new-password"
          hint={t("password.hint", { min: PASSWORD_MIN })}
          error={errors.newPassword?.message}
          {...register("newPassword", {
            required: t("password.validation.new_required"),
            minLength: { value: PASSWORD_MIN, message: t("password.validation.too_short", { min: PASSWORD_MIN }) },
            maxLength: { value: PASSWORD_MAX, message: t("password.validation.too_long", { max: PASSWORD_MAX }) },
            validate: (value) => value !== getValues("currentPassword") || t("password.validation.same"),
          })}
        />
        <PasswordField
          label={t("password.fields.confirm")}
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...register("confirmPassword", {
            required: t("password.validation.confirm_required"),
            validate: (value) => value === getValues("newPassword") || t("password.validation.differ"),
          })}
        />
        <SubmitButton pending={isSubmitting}>{t("password.submit")}</SubmitButton>
      </form>
      <p className="account-note">
        {t("password.no_password")} <Link to={localePath("/auth/password/forgot")}>{t("password.forgot_link")}</Link>
      </p>
    </>
  );
}

/** The change is done: offer to sign out the other sessions when there are any. */
function PasswordChanged({ otherSessions, onDone }: { otherSessions: number; onDone: () => void }) {
  const { t } = useTranslation("account");
  const errorText = useErrorText();
  const endOthers = useEndOtherSessions();
  const [ended, setEnded] = useState<number | null>(null);

  if (ended !== null) return <FormAlert tone="success">{t("password.ended", { sessions: ended })}</FormAlert>;
  return (
    <FormAlert tone="success">
      <p className="account-alert__text">{t("password.changed")}</p>
      {otherSessions > 0 && (
        <>
          <p className="account-alert__text">{t("password.other_sessions", { sessions: otherSessions })}</p>
          {endOthers.error && <p className="form-field__error">{errorText(endOthers.error)}</p>}
          <div className="account-alert__actions">
            <button
              type="button"
              className="btn btn--primary"
              disabled={endOthers.isPending}
              aria-busy={endOthers.isPending || undefined}
              onClick={() => endOthers.mutate(undefined, { onSuccess: setEnded })}
            >
              {t("password.end_others")}
            </button>
            <button type="button" className="btn btn--ghost" disabled={endOthers.isPending} onClick={onDone}>
              {t("password.keep_others")}
            </button>
          </div>
        </>
      )}
    </FormAlert>
  );
}
