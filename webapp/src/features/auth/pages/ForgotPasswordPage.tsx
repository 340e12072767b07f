import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { isApiError } from "@/api/client";
import { forgotPassword } from "../api/forgotPassword";
import { AuthCard } from "../components/AuthCard";
import { FormAlert } from "@/ui/form/FormAlert";
import { LocaleLink } from "../components/LocaleLink";
import { SubmitButton } from "@/ui/form/SubmitButton";
import { TextField } from "@/ui/form/TextField";
import { emailRules } from "../signIn/formRules";
import { useSignInErrorText } from "../signIn/useSignInErrorText";

/**
 * /auth/password/forgot: asks for a reset link. The confirmation reads the same whether or not
 * an account has the address, like the server's answer, so the page reveals no accounts.
 */
export default function ForgotPasswordPage() {
  const { t } = useTranslation("auth");
  const errorText = useSignInErrorText();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<{ email: string }>({ defaultValues: { email: "" } });

  const onSubmit = async ({ email }: { email: string }) => {
    try {
      await forgotPassword(email.trim());
      setSentTo(email.trim());
    } catch (error) {
      if (isApiError(error, "validation_error") && error.fields?.email) {
        setError("email", { message: error.fields.email }, { shouldFocus: true });
      } else {
        setError("root.server", { message: errorText(error) });
      }
    }
  };

  const backToSignIn = <LocaleLink to="/auth/login/">{t("common.backToSignIn")}</LocaleLink>;

  if (sentTo) {
    return (
      <AuthCard title={t("forgot.sentTitle")} footer={backToSignIn}>
        <FormAlert tone="success">{t("forgot.sent", { email: sentTo })}</FormAlert>
        <button type="button" className="btn btn--ghost auth-secondary" onClick={() => setSentTo(null)}>
          {t("forgot.tryAgain")}
        </button>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t("forgot.title")} intro={t("forgot.intro")} footer={backToSignIn}>
      {errors.root?.server?.message && <FormAlert tone="danger">{errors.root.server.message}</FormAlert>}
      <form className="form-form" onSubmit={handleSubmit(onSubmit)} noValidate>
        <TextField
          label={t("fields.email")}
          type="email"
          autoComplete="email"
          inputMode="email"
          error={errors.email?.message}
          {...register("email", emailRules(t))}
        />
        <SubmitButton pending={isSubmitting}>{t("forgot.submit")}</SubmitButton>
      </form>
    </AuthCard>
  );
}
