import { useState } from "react";
import { useForm } from "react-hook-form";
import { Navigate, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { isApiError } from "@/api/client";
import { useLocale } from "@/i18n/useLocalePath";
import { useIsAuthenticated } from "@/session/store";
import { login } from "../api/login";
import { useOfferedProviders } from "../api/providers";
import { AuthCard } from "../components/AuthCard";
import { FormAlert } from "@/ui/form/FormAlert";
import { LocaleLink } from "../components/LocaleLink";
import { ProviderButtons } from "../components/ProviderButtons";
import { SubmitButton } from "@/ui/form/SubmitButton";
import { PasswordField, TextField } from "@/ui/form/TextField";
import { emailRules } from "../signIn/formRules";
import { redirectQuery, signedInTarget } from "../signIn/redirectTarget";
import { useFinishSignIn } from "../signIn/useFinishSignIn";
import { useProviderSignIn } from "../signIn/useProviderSignIn";
import { useSignInErrorText } from "../signIn/useSignInErrorText";
import { trackLoginFailure } from "../signIn/trackLoginFailure";

interface LoginForm {
  email: string;
  password: string;
}

/** /auth/login: e-mail and password, the offered providers, and the session/device notices (spec §2). */
export default function LoginPage() {
  const { t } = useTranslation("auth");
  const [params] = useSearchParams();
  const locale = useLocale();
  const isAuthenticated = useIsAuthenticated();
  // Only a viewer who arrives signed in is sent on from here: one who signs in on this page is
  // sent by the sign-in itself (a new account to personalization), which must not be overridden.
  const [signedInOnArrival] = useState(isAuthenticated);
  const finishSignIn = useFinishSignIn();
  const errorText = useSignInErrorText();
  const { providers } = useOfferedProviders();
  const providerSignIn = useProviderSignIn({ trackFailures: true });
  const redirect = params.get("redirect");

  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<LoginForm>({ defaultValues: { email: "", password: "" } });

  if (isAuthenticated && signedInOnArrival && !isSubmitting && !providerSignIn.pending)
    return <Navigate to={signedInTarget(redirect, locale)} replace />;

  const onSubmit = async ({ email, password }: LoginForm) => {
    const username = email.trim();
    try {
      await finishSignIn(await login({ username, password }), { username });
    } catch (error) {
      trackLoginFailure(error);
      if (isApiError(error, "invalid_credentials")) {
        setError("password", { message: errorText(error) }, { shouldFocus: true });
      } else if (isApiError(error, "validation_error") && (error.fields?.username || error.fields?.password)) {
        if (error.fields.username) setError("email", { message: error.fields.username }, { shouldFocus: true });
        if (error.fields.password) setError("password", { message: error.fields.password });
      } else {
        setError("root.server", { message: errorText(error) });
      }
    }
  };

  const notice =
    params.get("sessionExpired") === "true"
      ? t("login.sessionExpired")
      : params.get("deviceNoLongerAllowedError") === "true"
        ? t("login.deviceNoLongerAllowed")
        : null;
  const providerFailure = providerSignIn.failure;

  return (
    <AuthCard
      title={t("login.title")}
      intro={t("login.intro")}
      footer={
        <p>
          {t("login.noAccount")}{" "}
          <LocaleLink to={`/auth/sign-up/${redirectQuery(redirect)}`}>{t("login.signUp")}</LocaleLink>
        </p>
      }
    >
      {notice && <FormAlert tone="info">{notice}</FormAlert>}
      {errors.root?.server?.message && <FormAlert tone="danger">{errors.root.server.message}</FormAlert>}
      {providerFailure && (
        <FormAlert tone="danger">{errorText(providerFailure.error, providerFailure.provider)}</FormAlert>
      )}
      <form className="form-form" onSubmit={handleSubmit(onSubmit)} noValidate>
        <TextField
          label={t("fields.email")}
          type="email"
          autoComplete="username"
          inputMode="email"
          error={errors.email?.message}
          {...register("email", emailRules(t))}
        />
        <PasswordField
          label={t("fields.password")}
          autoComplete="current-password"
          error={errors.password?.message}
          {...register("password", { required: t("validation.passwordRequired") })}
        />
        <p className="form-form__aside">
          <LocaleLink to="/auth/password/forgot/">{t("login.forgotPassword")}</LocaleLink>
        </p>
        <SubmitButton pending={isSubmitting}>{t("login.submit")}</SubmitButton>
      </form>
      <ProviderButtons
        providers={providers}
        pending={providerSignIn.pending}
        onSignIn={providerSignIn.start}
        onGoogleIdToken={providerSignIn.withGoogleIdToken}
        onError={providerSignIn.fail}
      />
    </AuthCard>
  );
}
