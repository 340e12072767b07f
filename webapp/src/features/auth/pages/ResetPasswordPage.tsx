import { useState } from "react";
import { useForm } from "react-hook-form";
import { useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { isApiError } from "@/api/client";
import { resetPassword } from "../api/resetPassword";
import { AuthCard } from "../components/AuthCard";
import { FormAlert } from "@/ui/form/FormAlert";
import { LocaleLink } from "../components/LocaleLink";
import { SubmitButton } from "@/ui/form/SubmitButton";
import { PasswordField } from "@/ui/form/TextField";
import { PASSWORD_MIN, confirmPasswordRules, newPasswordRules } from "../signIn/formRules";
import { useSignInErrorText } from "../signIn/useSignInErrorText";

interface ResetForm {
  password: string;
  confirmPassword: string;
}

/** ResetPasswordRequest.token bounds: shorter or longer cannot be a token the server issued. */
const TOKEN_MIN = 16;
const TOKEN_MAX = 512;

/** /auth/password/reset/?token=…: the link from the reset mail; a new password, typed twice. */
export default function ResetPasswordPage() {
  const { t } = useTranslation("auth");
  const errorText = useSignInErrorText();
  const [params] = useSearchParams();
  const token = params.get("token")?.trim() ?? "";
  const [done, setDone] = useState(false);
  const [tokenRefused, setTokenRefused] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm<ResetForm>({ defaultValues: { password: "", confirmPassword: "" } });

  const requestNew = <LocaleLink to="/auth/password/forgot/">{t("reset.requestNew")}</LocaleLink>;

  if (done) {
    return (
      <AuthCard title={t("reset.doneTitle")}>
        <FormAlert tone="success">{t("reset.done")}</FormAlert>
        <LocaleLink to="/auth/login/" className="btn btn--primary auth-submit">
          {t("reset.signIn")}
        </LocaleLink>
      </AuthCard>
    );
  }
  if (token.length < TOKEN_MIN || token.length > TOKEN_MAX || tokenRefused) {
    return (
      <AuthCard title={t("reset.title")} footer={requestNew}>
        <FormAlert tone="danger">{tokenRefused ? t("reset.invalidToken") : t("reset.missingToken")}</FormAlert>
      </AuthCard>
    );
  }

  const onSubmit = async ({ password }: ResetForm) => {
    try {
      await resetPassword(token, password);
      setDone(true);
    } catch (error) {
      if (isApiError(error, "invalid_reset_token")) setTokenRefused(true);
      else if (isApiError(error, "weak_password"))
        setError("password", { message: errorText(error) }, { shouldFocus: true });
      else if (isApiError(error, "validation_error") && error.fields?.password) {
        setError("password", { message: error.fields.password }, { shouldFocus: true });
      } else setError("root.server", { message: errorText(error) });
    }
  };

  return (
    <AuthCard
      title={t("reset.title")}
      intro={t("reset.intro")}
      footer={<LocaleLink to="/auth/login/">{t("common.backToSignIn")}</LocaleLink>}
    >
      {errors.root?.server?.message && <FormAlert tone="danger">{errors.root.server.message}</FormAlert>}
      <form className="form-form" onSubmit={handleSubmit(onSubmit)} noValidate>
        <PasswordField
          label={t("fields.newPassword")}
          autoComplete="new-password"
          hint={t("fields.passwordHint", { min: PASSWORD_MIN })}
          error={errors.password?.message}
          {...register("password", newPasswordRules(t))}
        />
        <PasswordField
          label={t("fields.confirmPassword")}
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...register(
            "confirmPassword",
            confirmPasswordRules(t, () => getValues("password")),
          )}
        />
        <SubmitButton pending={isSubmitting}>{t("reset.submit")}</SubmitButton>
      </form>
    </AuthCard>
  );
}
