import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { isApiError } from "@/api/client";
import { useErrorText } from "@/api/errors";
import { useLocalePath } from "@/i18n/useLocalePath";
import { notify } from "@/lib/notify";
import { FormAlert } from "@/ui/form/FormAlert";
import { SubmitButton } from "@/ui/form/SubmitButton";
import { TextField } from "@/ui/form/TextField";
import { useRedeemCode } from "../api/redeem";
import { CommercePage } from "../components/Section";
import { safeReturnPath } from "../lib/paths";

/** The refusals of a code, each with its own explanation (unknown and revoked are one answer, 404). */
const CODE_ERRORS: Record<string, string> = {
  access_code_not_found: "code.errors.unknown",
  already_redeemed: "code.errors.used",
  access_code_expired: "code.errors.expired",
  already_purchased: "code.errors.held",
  already_subscribed: "code.errors.held",
};

/** /auth/sign-up/subscription/code: redeem an access code for the product it grants. */
export default function RedeemCodePage() {
  const { t } = useTranslation("commerce");
  const errorText = useErrorText();
  const localePath = useLocalePath();
  const [search] = useSearchParams();
  const redirect = safeReturnPath(search.get("redirect"));
  const redeem = useRedeemCode();
  const [done, setDone] = useState<{ title: string; path: string } | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<{ code: string }>({ defaultValues: { code: "" } });

  const onSubmit = async ({ code }: { code: string }) => {
    try {
      const result = await redeem.mutateAsync(code.trim());
      const eventId = result.product.eventId;
      const path =
        redirect ??
        (result.contractId
          ? `/account/subscription/${result.contractId}`
          : eventId
            ? `/events/${eventId}`
            : "/account/ppv");
      setDone({ title: result.product.title, path });
      void notify.success(t("code.redeemed", { title: result.product.title }));
    } catch (error) {
      const key = isApiError(error) && error.code ? CODE_ERRORS[error.code] : undefined;
      if (isApiError(error, "validation_error") && error.fields?.code)
        setError("code", { message: t("code.errors.format") }, { shouldFocus: true });
      else setError("code", { message: key ? t(key) : errorText(error) }, { shouldFocus: true });
    }
  };

  return (
    <CommercePage title={t("code.title")} intro={t("code.intro")}>
      {done ? (
        <>
          <FormAlert tone="success">{t("code.redeemed", { title: done.title })}</FormAlert>
          <div className="commerce-actions">
            <Link className="btn btn--primary" to={localePath(done.path)}>
              {t("code.continue")}
            </Link>
            <button
              type="button"
              className="btn"
              onClick={() => {
                setDone(null);
                reset();
              }}
            >
              {t("code.another")}
            </button>
          </div>
        </>
      ) : (
        <form className="form-form" onSubmit={handleSubmit(onSubmit)} noValidate>
          <TextField
            label={t("code.label")}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            dir="ltr"
            placeholder="DERBY-7KQ4-M2XP-9HTW"
            error={errors.code?.message}
            {...register("code", {
              validate: (value) =>
                !value.trim()
                  ? t("code.errors.required")
                  : /^[A-Za-z0-9 -]{4,64}$/.test(value.trim()) || t("code.errors.format"),
            })}
          />
          <SubmitButton pending={isSubmitting}>{t("code.submit")}</SubmitButton>
        </form>
      )}
      {redirect && <Link to={localePath(redirect)}>{t("code.back")}</Link>}
    </CommercePage>
  );
}
