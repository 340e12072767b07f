import { useId, useState, type ReactNode } from "react";
import {
  useForm,
  type FieldErrors,
  type UseFormRegister,
  type UseFormSetValue,
  type UseFormWatch,
} from "react-hook-form";
import { useNavigate } from "react-router";
import { useTranslation } from "react-i18next";
import { isApiError } from "@/api/client";
import { useErrorText } from "@/api/errors";
import { mapUserProfile, type UserProfile } from "@/entities/user";
import { useLocalePath } from "@/i18n/useLocalePath";
import { notify } from "@/lib/notify";
import { setSpoilerFree, useSpoilerFree } from "@/session/spoilers";
import { useCurrentUser } from "@/session/store";
import { FormAlert } from "@/ui/form/FormAlert";
import { SubmitButton } from "@/ui/form/SubmitButton";
import { TextField } from "@/ui/form/TextField";
import { useUpdateProfile } from "../api/updateProfile";
import { useDeleteAccount } from "../api/deleteAccount";
import { useCategoryChoices } from "../api/listCategories";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { CalendarFeedBlock } from "./CalendarFeedBlock";
import {
  GENDERS,
  SERVER_FIELDS,
  formValuesOf,
  localToday,
  profileChanges,
  profileRules,
  type ProfileFormValues,
} from "./profileForm";
import "./sections.css";

/** /account and /account/general: the profile's fields, and deleting the account. */
export default function GeneralSection() {
  const { t } = useTranslation("account");
  const user = useCurrentUser();
  if (!user) return null; // the layout asks a signed-out visitor to sign in
  return (
    <>
      <h2>{t("sections.general")}</h2>
      {/* A new form per viewer: its defaults are that viewer's profile. */}
      <ProfileForm key={user.id} user={user} />
      <SpoilerPreference />
      <LiveAlertPreference key={`alerts-${user.id}`} on={user.liveAlertMail} />
      <CalendarFeedBlock />
      <DeleteAccount />
    </>
  );
}

/** Spoiler-free mode (issue 31 §1), kept with the account: the header's switch, said in words. */
function SpoilerPreference() {
  const { t } = useTranslation(["account", "common"]);
  const on = useSpoilerFree();
  return (
    <PreferenceCheckbox
      label={t("general.spoiler_free")}
      hint={t("general.spoiler_free_hint")}
      checked={on}
      onChange={(checked) => {
        setSpoilerFree(checked).catch(() => notify.danger(t("common:header.spoilers_not_saved")));
      }}
    />
  );
}

/** A setting of the account: a checkbox with the words that explain it. */
function PreferenceCheckbox(props: {
  label: string;
  hint: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  children?: ReactNode;
}) {
  const hintId = useId();
  return (
    <section className="account-preferences">
      <label className="form-check">
        <input
          type="checkbox"
          className="form-check__input"
          checked={props.checked}
          aria-describedby={hintId}
          onChange={(change) => props.onChange(change.target.checked)}
        />
        <span>{props.label}</span>
      </label>
      <p id={hintId} className="form-field__hint">
        {props.hint}
      </p>
      {props.children}
    </section>
  );
}

/** Go-live alerts by mail (issue 31 §4), an opt-in kept in the profile's options. */
function LiveAlertPreference({ on }: { on: boolean }) {
  const { t } = useTranslation("account");
  const errorText = useErrorText();
  const update = useUpdateProfile();
  // The box shows the choice at once; the stored profile takes over once it is saved (or refused).
  const [choice, setChoice] = useState<boolean | null>(null);
  return (
    <PreferenceCheckbox
      label={t("general.live_alert_mail")}
      hint={t("general.live_alert_mail_hint")}
      checked={choice ?? on}
      onChange={(wanted) => {
        setChoice(wanted);
        update.mutate({ liveAlertMail: wanted }, { onSettled: () => setChoice(null) });
      }}
    >
      {update.error && <FormAlert tone="danger">{errorText(update.error)}</FormAlert>}
    </PreferenceCheckbox>
  );
}

function ProfileForm({ user }: { user: UserProfile }) {
  const { t } = useTranslation("account");
  const errorText = useErrorText();
  const update = useUpdateProfile();
  const [saved, setSaved] = useState<"saved" | "unchanged" | null>(null);
  const rules = profileRules(t);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    watch,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<ProfileFormValues>({ defaultValues: formValuesOf(user) });

  const onSubmit = async (values: ProfileFormValues) => {
    setSaved(null);
    const changes = profileChanges(values, user);
    if (Object.keys(changes).length === 0) {
      setSaved("unchanged");
      return;
    }
    try {
      const profile = await update.mutateAsync(changes);
      reset(formValuesOf(mapUserProfile(profile)));
      setSaved("saved");
    } catch (error) {
      showServerError(error);
    }
  };

  const showServerError = (error: unknown) => {
    let atField = false;
    if (isApiError(error) && error.fields) {
      for (const [field, message] of Object.entries(error.fields)) {
        const name = SERVER_FIELDS[field];
        if (!name) continue;
        setError(name, { message }, { shouldFocus: !atField });
        atField = true;
      }
    }
    // identity_not_found: the chosen category has gone from the catalogue meanwhile.
    if (!atField && isApiError(error, "identity_not_found")) {
      setError("identity", { message: errorText(error) }, { shouldFocus: true });
      atField = true;
    }
    if (!atField) setError("root.server", { message: errorText(error) });
  };

  return (
    <form className="form-form account-form" onSubmit={handleSubmit(onSubmit)} noValidate>
      {errors.root?.server?.message && <FormAlert tone="danger">{errors.root.server.message}</FormAlert>}
      {saved && <FormAlert tone={saved === "saved" ? "success" : "info"}>{t(`general.${saved}`)}</FormAlert>}
      <div className="account-form__grid">
        <TextField
          label={t("general.fields.full_name")}
          autoComplete="name"
          maxLength={200}
          error={errors.fullName?.message}
          {...register("fullName", rules.fullName)}
        />
        <TextField
          label={t("general.fields.email")}
          type="email"
          value={user.email ?? ""}
          placeholder={user.email ? undefined : t("general.no_email")}
          readOnly
          hint={t("general.email_hint")}
        />
        <TextField
          label={t("general.fields.phone")}
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          dir="ltr"
          error={errors.phone?.message}
          {...register("phone", rules.phone)}
        />
        <TextField
          label={t("general.fields.date_of_birth")}
          type="date"
          autoComplete="bday"
          max={localToday()}
          error={errors.dateOfBirth?.message}
          {...register("dateOfBirth", rules.dateOfBirth)}
        />
        <div className="form-field">
          <label className="form-field__label" htmlFor="account-gender">
            {t("general.fields.gender")}
          </label>
          <select
            id="account-gender"
            className="form-field__input"
            aria-invalid={errors.gender ? true : undefined}
            {...register("gender")}
          >
            <option value="">{t("general.gender.unset")}</option>
            {GENDERS.map((gender) => (
              <option key={gender} value={gender}>
                {t(`general.gender.${gender}`)}
              </option>
            ))}
          </select>
          {errors.gender?.message && <p className="form-field__error">{errors.gender.message}</p>}
        </div>
        <FavouriteCategories register={register} watch={watch} setValue={setValue} errors={errors} />
        <TextField
          label={t("general.fields.city")}
          autoComplete="address-level2"
          error={errors.city?.message}
          {...register("city", rules.city)}
        />
        <TextField
          label={t("general.fields.postal_code")}
          autoComplete="postal-code"
          error={errors.postalCode?.message}
          {...register("postalCode", rules.postalCode)}
        />
        <TextField
          label={t("general.fields.country")}
          autoComplete="country-name"
          error={errors.countryName?.message}
          {...register("countryName", rules.countryName)}
        />
      </div>
      <SubmitButton pending={isSubmitting}>{t("general.save")}</SubmitButton>
    </form>
  );
}

interface FavouriteCategoriesProps {
  register: UseFormRegister<ProfileFormValues>;
  watch: UseFormWatch<ProfileFormValues>;
  setValue: UseFormSetValue<ProfileFormValues>;
  errors: FieldErrors<ProfileFormValues>;
}

/** The favourite main category and one of its sub-categories (the profile's identity and identityItem). */
function FavouriteCategories({ register, watch, setValue, errors }: FavouriteCategoriesProps) {
  const { t } = useTranslation("account");
  const identity = watch("identity");
  const identityItem = watch("identityItem");
  const mains = useCategoryChoices(null);
  const subs = useCategoryChoices(identity || null, !!identity);
  // A stored choice the list does not hold (archived, still loading) stays selectable.
  const withCurrent = (choices: { id: string; title: string }[] | undefined, current: string) =>
    !current || choices?.some((choice) => choice.id === current)
      ? (choices ?? [])
      : [...(choices ?? []), { id: current, title: current }];
  return (
    <>
      <div className="form-field">
        <label className="form-field__label" htmlFor="account-identity">
          {t("general.fields.identity")}
        </label>
        <select
          id="account-identity"
          className="form-field__input"
          aria-invalid={errors.identity ? true : undefined}
          aria-describedby={errors.identity ? "account-identity-error" : undefined}
          {...register("identity", {
            // A sub-category belongs to its main category: a new main category clears it.
            onChange: () => setValue("identityItem", "", { shouldDirty: true }),
          })}
        >
          <option value="">{t("general.identity_none")}</option>
          {withCurrent(mains.data, identity).map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.title}
            </option>
          ))}
        </select>
        {errors.identity?.message && (
          <p id="account-identity-error" className="form-field__error">
            {errors.identity.message}
          </p>
        )}
      </div>
      <div className="form-field">
        <label className="form-field__label" htmlFor="account-identity-item">
          {t("general.fields.identity_item")}
        </label>
        <select
          id="account-identity-item"
          className="form-field__input"
          disabled={!identity}
          aria-describedby={identity ? undefined : "account-identity-item-hint"}
          aria-invalid={errors.identityItem ? true : undefined}
          {...register("identityItem")}
        >
          <option value="">{t("general.identity_none")}</option>
          {withCurrent(identity ? subs.data : [], identityItem).map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.title}
            </option>
          ))}
        </select>
        {!identity && (
          <p id="account-identity-item-hint" className="form-field__hint">
            {t("general.identity_item_hint")}
          </p>
        )}
        {errors.identityItem?.message && <p className="form-field__error">{errors.identityItem.message}</p>}
      </div>
    </>
  );
}

const LOST = ["purchases", "subscriptions", "clips", "watchlist", "follows", "devices", "card"] as const;

function DeleteAccount() {
  const { t } = useTranslation("account");
  const errorText = useErrorText();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const remove = useDeleteAccount();
  const [confirming, setConfirming] = useState(false);

  // Awaited rather than mutate()'s callbacks: the session ends with the deletion, and this
  // section unmounts (its viewer is gone) before the callbacks would run.
  const confirm = async () => {
    try {
      await remove.mutateAsync();
    } catch {
      return; // shown in the dialog
    }
    void notify.success(t("general.delete.done"));
    navigate(localePath("/"), { replace: true });
  };

  return (
    <section className="account-danger" aria-labelledby="account-delete-title">
      <h3 id="account-delete-title">{t("general.delete.title")}</h3>
      <p>{t("general.delete.intro")}</p>
      <button type="button" className="btn account-button--danger" onClick={() => setConfirming(true)}>
        {t("general.delete.open")}
      </button>
      {confirming && (
        <ConfirmDialog
          title={t("general.delete.confirm_title")}
          confirmLabel={t("general.delete.confirm")}
          cancelLabel={t("general.delete.cancel")}
          pending={remove.isPending}
          error={remove.error ? errorText(remove.error) : undefined}
          onConfirm={() => void confirm()}
          onCancel={() => {
            remove.reset();
            setConfirming(false);
          }}
        >
          <p>{t("general.delete.confirm_intro")}</p>
          <ul className="account-dialog__list">
            {LOST.map((item) => (
              <li key={item}>{t(`general.delete.lost.${item}`)}</li>
            ))}
          </ul>
          <p>{t("general.delete.kept")}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
