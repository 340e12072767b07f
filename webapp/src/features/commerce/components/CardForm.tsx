import { useForm, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { isApiError } from "@/api/client";
import { useErrorText } from "@/api/errors";
import { FormAlert } from "@/ui/form/FormAlert";
import { SubmitButton } from "@/ui/form/SubmitButton";
import { TextField } from "@/ui/form/TextField";
import { cardDigits, checkCardNumber, checkCvc, checkExpiry, formatCardNumber, parseExpiry } from "../lib/card";
import type { Payment } from "../api/pay";
import type { StoredCard } from "../api/model";

interface CardFormValues {
  source: "stored" | "new";
  number: string;
  expiry: string;
  cvc: string;
  holder: string;
  save: boolean;
}

interface CardFormProps {
  /** The stored card to offer (null: none; undefined: not offered, e.g. when replacing it). */
  storedCard?: StoredCard | null;
  /** Offer "save this card" for a new card. */
  offerSave?: boolean;
  saveByDefault?: boolean;
  submitLabel: string;
  /** Pays (or stores the card); an ApiError it throws is shown at its field or above the form. */
  onPay: (payment: Payment) => Promise<void>;
}

/** Card details are checked here first; they leave the page only through tokenize_card. */
export function CardForm({ storedCard, offerSave = true, saveByDefault = false, submitLabel, onPay }: CardFormProps) {
  const { t } = useTranslation("commerce");
  const errorText = useErrorText();
  const {
    register,
    handleSubmit,
    control,
    setError,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<CardFormValues>({
    defaultValues: {
      source: storedCard ? "stored" : "new",
      number: "",
      expiry: "",
      cvc: "",
      holder: "",
      save: saveByDefault,
    },
  });
  const source = useWatch({ control, name: "source" });
  const newCard = !storedCard || source === "new";
  const message = (code: string | null) => (code ? t(`card.errors.${code}`) : true);

  const submit = async (values: CardFormValues) => {
    try {
      if (!newCard) {
        await onPay({ kind: "stored" });
        return;
      }
      const expiry = parseExpiry(values.expiry);
      if (!expiry) return; // the field's own check refused it already
      await onPay({
        kind: "card",
        card: {
          number: cardDigits(values.number),
          expMonth: expiry.month,
          expYear: expiry.year,
          cvc: values.cvc.trim(),
          holder: values.holder.trim() || undefined,
        },
        save: offerSave && values.save,
      });
    } catch (error) {
      const fields = isApiError(error) ? (error.fields ?? {}) : {};
      const text = errorText(error);
      if (fields.number) setError("number", { message: fields.number }, { shouldFocus: true });
      else if (fields.exp_month || fields.exp_year)
        setError("expiry", { message: fields.exp_month ?? fields.exp_year }, { shouldFocus: true });
      else if (fields.cvc) setError("cvc", { message: fields.cvc }, { shouldFocus: true });
      else if (isApiError(error, "invalid_card")) setError("number", { message: text }, { shouldFocus: true });
      else setError("root.server", { message: text });
    }
  };

  const numberField = register("number", {
    validate: (value) => !newCard || message(checkCardNumber(value)),
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => setValue("number", formatCardNumber(event.target.value)),
  });

  return (
    <form className="form-form commerce-card-form" onSubmit={handleSubmit(submit)} noValidate>
      {errors.root?.server?.message && <FormAlert tone="danger">{errors.root.server.message}</FormAlert>}
      {storedCard && (
        <fieldset className="commerce-card-form__sources">
          <legend className="form-field__label">{t("card.payWith")}</legend>
          <label className="form-check">
            <input type="radio" className="form-check__input" value="stored" {...register("source")} />
            <span>
              {t("card.storedCard", {
                brand: t(`card.brands.${storedCard.brand}`),
                last4: storedCard.last4,
                month: String(storedCard.expMonth).padStart(2, "0"),
                year: storedCard.expYear,
              })}
            </span>
          </label>
          <label className="form-check">
            <input type="radio" className="form-check__input" value="new" {...register("source")} />
            <span>{t("card.newCard")}</span>
          </label>
        </fieldset>
      )}
      {newCard && (
        <>
          <TextField
            label={t("card.number")}
            autoComplete="cc-number"
            inputMode="numeric"
            dir="ltr"
            placeholder="1234 5678 9012 3456"
            error={errors.number?.message}
            {...numberField}
          />
          <div className="commerce-card-form__row">
            <TextField
              label={t("card.expiry")}
              hint={t("card.expiryHint")}
              autoComplete="cc-exp"
              inputMode="numeric"
              dir="ltr"
              placeholder="MM/YY"
              error={errors.expiry?.message}
              {...register("expiry", { validate: (value) => !newCard || message(checkExpiry(value)) })}
            />
            <TextField
              label={t("card.cvc")}
              autoComplete="cc-csc"
              inputMode="numeric"
              dir="ltr"
              maxLength={4}
              error={errors.cvc?.message}
              {...register("cvc", {
                validate: (value, all) => !newCard || message(checkCvc(value, all.number)),
              })}
            />
          </div>
          <TextField
            label={t("card.holder")}
            autoComplete="cc-name"
            maxLength={100}
            error={errors.holder?.message}
            {...register("holder")}
          />
          {offerSave && (
            <label className="form-check">
              <input type="checkbox" className="form-check__input" {...register("save")} />
              <span>{t("card.save")}</span>
            </label>
          )}
        </>
      )}
      <SubmitButton pending={isSubmitting}>{submitLabel}</SubmitButton>
      <p className="form-field__hint">{t("card.secure")}</p>
    </form>
  );
}
