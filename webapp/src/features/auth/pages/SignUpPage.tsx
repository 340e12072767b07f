import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { Navigate, useSearchParams } from "react-router";
import { Trans, useTranslation } from "react-i18next";
import { isApiError } from "@/api/client";
import { useLocale } from "@/i18n/useLocalePath";
import { useIsAuthenticated } from "@/session/store";
import { register as registerAccount } from "../api/register";
import { CheckYourMail } from "../components/CheckYourMail";
import { useOfferedProviders } from "../api/providers";
import { AuthCard } from "../components/AuthCard";
import { FormAlert } from "@/ui/form/FormAlert";
import { LocaleLink } from "../components/LocaleLink";
import { ProviderButtons } from "../components/ProviderButtons";
import { SubmitButton } from "@/ui/form/SubmitButton";
import { PasswordField, TextField } from "@/ui/form/TextField";
import { FULL_NAME_MAX, PASSWORD_MIN, confirmPasswordRules, emailRules, newPasswordRules } from "../signIn/formRules";
import { redirectQuery, signedInTarget } from "../signIn/redirectTarget";
import { useProviderSignIn } from "../signIn/useProviderSignIn";
import { useSignInErrorText } from "../signIn/useSignInErrorText";

interface SignUpForm {
  fullName: string;
  email: string;
  password: string;
  confirmPassword: string;
  terms: boolean;
}

/** Server field names (RegisterRequest) → this form's fields, to show a 400's field errors in place. */
const SERVER_FIELDS = { displayName: "fullName", email: "email", password: "password" } as const;

/**
 * /auth/sign-up: the viewer is told to check their mail; the mailed link (/auth/verify/) signs the
 * new account in and continues to personalization (issue 26 §5).
 */
export default function SignUpPage() {
  const { t } = useTranslation("auth");
  const [params] = useSearchParams();
  const locale = useLocale();
  const isAuthenticated = useIsAuthenticated();
  // Only a viewer who arrives signed in is sent on from here: one who signs in on this page is
  // sent by the sign-in itself (a new account to personalization), which must not be overridden.
  const [signedInOnArrival] = useState(isAuthenticated);
  // What was sent (the address, and the details to sign up again with for a new link).
  const [sent, setSent] = useState<{ email: string; password: string; displayName: string } | null>(null);
  const errorText = useSignInErrorText();
  const { providers } = useOfferedProviders();
  const providerSignIn = useProviderSignIn();
  const redirect = params.get("redirect");
  const termsId = useId();

  const {
    register,
    handleSubmit,
    setError,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm<SignUpForm>({
    defaultValues: { fullName: "", email: "", password: "", confirmPassword: "", terms: false },
  });

  if (isAuthenticated && signedInOnArrival && !isSubmitting && !providerSignIn.pending)
    return <Navigate to={signedInTarget(redirect, locale)} replace />;

  const onSubmit = async ({ fullName, email, password }: SignUpForm) => {
    const username = email.trim();
    try {
      // The same answer for a new and a taken address (issue 26 §11): the mail says which.
      const details = { email: username, password, displayName: fullName.trim() };
      await registerAccount(details);
      setSent(details);
    } catch (error) {
      if (isApiError(error, "weak_password")) {
        setError("password", { message: errorText(error) }, { shouldFocus: true });
        return;
      }
      const fields = isApiError(error, "validation_error") ? error.fields : undefined;
      const placed = Object.entries(SERVER_FIELDS).filter(([server]) => fields?.[server]);
      if (fields && placed.length) {
        placed.forEach(([server, field], index) =>
          setError(field, { message: fields[server] }, { shouldFocus: index === 0 }),
        );
        return;
      }
      setError("root.server", { message: errorText(error) });
    }
  };

  if (sent) return <CheckYourMail email={sent.email} resend={() => registerAccount(sent)} />;

  const providerFailure = providerSignIn.failure;
  const termsErrorId = `${termsId}-error`;

  return (
    <AuthCard
      title={t("signUp.title")}
      intro={t("signUp.intro")}
      footer={
        <p>
          {t("signUp.haveAccount")}{" "}
          <LocaleLink to={`/auth/login/${redirectQuery(redirect)}`}>{t("signUp.signIn")}</LocaleLink>
        </p>
      }
    >
      {errors.root?.server?.message && <FormAlert tone="danger">{errors.root.server.message}</FormAlert>}
      {providerFailure && (
        <FormAlert tone="danger">{errorText(providerFailure.error, providerFailure.provider)}</FormAlert>
      )}
      <form className="form-form" onSubmit={handleSubmit(onSubmit)} noValidate>
        <TextField
          label={t("fields.fullName")}
          autoComplete="name"
          error={errors.fullName?.message}
          {...register("fullName", {
            validate: (value) => {
              if (!value.trim()) return t("validation.fullNameRequired");
              return value.trim().length <= FULL_NAME_MAX || t("validation.fullNameTooLong", { max: FULL_NAME_MAX });
            },
          })}
        />
        <TextField
          label={t("fields.email")}
          type="email"
          autoComplete="email"
          inputMode="email"
          error={errors.email?.message}
          {...register("email", emailRules(t))}
        />
        <PasswordField
          label={t("fields.password")}
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
        <div className="form-check">
          <input
            id={termsId}
            type="checkbox"
            className="form-check__input"
            aria-invalid={errors.terms ? true : undefined}
            aria-describedby={errors.terms ? termsErrorId : undefined}
            {...register("terms", { required: t("validation.termsRequired") })}
          />
          <label htmlFor={termsId} className="form-check__label">
            <Trans
              t={t}
              i18nKey="signUp.terms"
              components={{ terms: <LocaleLink to="/terms/" />, privacy: <LocaleLink to="/privacy/" /> }}
            />
          </label>
          {errors.terms?.message && (
            <p id={termsErrorId} className="form-field__error form-check__error">
              {errors.terms.message}
            </p>
          )}
        </div>
        <SubmitButton pending={isSubmitting}>{t("signUp.submit")}</SubmitButton>
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
