import { useId, useRef, useState, type FormEvent } from "react";
import { useLocation, useNavigate, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { isApiError } from "@/api/client";
import { mapDevices } from "@/entities/device";
import { currentDevice } from "@/session/device";
import { completeLogin } from "../api/completeLogin";
import { deleteDeviceWithTicket } from "../api/deleteDeviceWithTicket";
import type { LoginResponse } from "../api/types";
import { AuthCard } from "../components/AuthCard";
import { DeviceChoice } from "../components/DeviceChoice";
import { FormAlert } from "@/ui/form/FormAlert";
import { LocaleLink } from "../components/LocaleLink";
import { SubmitButton } from "@/ui/form/SubmitButton";
import { decodeLimitData, encodeLimitData, type LimitData } from "../signIn/limitData";
import { redirectQuery } from "../signIn/redirectTarget";
import { useFinishSignIn, type LimitPageState } from "../signIn/useFinishSignIn";
import { useSignInErrorText } from "../signIn/useSignInErrorText";

/**
 * /auth/login/limit/?data=…: the account is at its device limit (spec §2, §8). The viewer picks a
 * device to remove (delete_device with the limit ticket as bearer), then the sign-in finishes
 * with the same ticket (complete_login), without the password.
 */
export default function LoginLimitPage() {
  const { t } = useTranslation("auth");
  const [params] = useSearchParams();
  const data = decodeLimitData(params.get("data"));
  if (!data) {
    return (
      <AuthCard title={t("limit.title")} footer={<LocaleLink to="/auth/login/">{t("common.backToSignIn")}</LocaleLink>}>
        <FormAlert tone="danger">{t("limit.invalidData")}</FormAlert>
      </AuthCard>
    );
  }
  return <DeviceLimit data={data} />;
}

function DeviceLimit({ data }: { data: LimitData }) {
  const { t } = useTranslation("auth");
  const errorText = useSignInErrorText();
  const finishSignIn = useFinishSignIn();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const choiceErrorId = useId();
  const [selected, setSelected] = useState<string | null>(null);
  const [choiceError, setChoiceError] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const firstChoice = useRef<HTMLInputElement>(null);

  // The devices travel in history state (they survive a reload); the ticket in the URL.
  const pageState = location.state as LimitPageState | null;
  const devices = pageState?.devices ? mapDevices(pageState.devices, currentDevice().id) : null;
  const mustRemove = !!pageState && pageState.devices.length >= pageState.limit;

  /** Keeps what a still-limited answer brings: the new ticket in the URL, the devices in history state. */
  const stayAtLimit = async (
    response: LoginResponse,
    deviceError: NonNullable<LoginResponse["content"]["device_error"]>,
  ) => {
    const next = encodeLimitData({ ...data, token: deviceError.limit_ticket });
    const state: LimitPageState = { devices: response.content.devices, limit: deviceError.limit };
    // Awaited: the notice that follows must not show beside the devices and ticket it replaces.
    await navigate(
      { search: `?data=${encodeURIComponent(next)}${redirectQuery(params.get("redirect"), "&")}` },
      { replace: true, state },
    );
    setSelected(null);
  };

  const complete = async () => {
    const response = await completeLogin(data.token);
    if (response.content.device_error) {
      await stayAtLimit(response, response.content.device_error);
      return false;
    }
    await finishSignIn(response, { username: data.username });
    return true;
  };

  /**
   * Opened without the devices (a new tab, a copied link): the ticket in the URL would sign in by
   * itself, so it is spent only when the viewer asks. The server then either signs in (a device
   * was freed meanwhile) or answers the devices with a new ticket.
   */
  const lookUp = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setPending(true);
    complete()
      .catch(setFailure)
      .finally(() => setPending(false));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!pageState) return;
    if (mustRemove && !selected) {
      setChoiceError(t("limit.chooseDevice"));
      firstChoice.current?.focus();
      return;
    }
    setChoiceError(null);
    setFailure(null);
    setNotice(null);
    setPending(true);
    try {
      if (mustRemove && selected) {
        const left = await deleteDeviceWithTicket(data.token, selected);
        // Remember the removal at once: if finishing fails, a retry must not remove again.
        navigate(
          { search: location.search },
          { replace: true, state: { devices: left.devices, limit: left.limit } satisfies LimitPageState },
        );
      }
      if (!(await complete())) setNotice(t("limit.stillAtLimit"));
    } catch (error) {
      setFailure(error);
    } finally {
      setPending(false);
    }
  };

  const ticketGone = isApiError(failure, "limit_ticket_invalid") || isApiError(failure, "unauthorized");
  const footer = (
    <LocaleLink to={`/auth/login/${redirectQuery(params.get("redirect"))}`}>{t("common.backToSignIn")}</LocaleLink>
  );

  return (
    <AuthCard
      title={t("limit.title")}
      intro={pageState ? t("limit.intro", { count: pageState.limit }) : undefined}
      footer={footer}
    >
      {data.username && <p className="auth-card__meta">{t("limit.signingInAs", { username: data.username })}</p>}
      {notice && <FormAlert tone="info">{notice}</FormAlert>}
      {failure !== null && <FormAlert tone="danger">{errorText(failure)}</FormAlert>}
      {!devices && (
        <form className="form-form" onSubmit={lookUp} noValidate>
          {pending && (
            <p className="auth-card__meta" role="status">
              {t("limit.loadingDevices")}
            </p>
          )}
          <SubmitButton pending={pending}>{t("limit.continue")}</SubmitButton>
        </form>
      )}
      {devices && !ticketGone && (
        <form className="form-form" onSubmit={onSubmit} noValidate>
          {mustRemove ? (
            <DeviceChoice
              devices={devices}
              selected={selected}
              onSelect={(id) => {
                setSelected(id);
                setChoiceError(null);
              }}
              disabled={pending}
              error={choiceError ?? undefined}
              errorId={choiceErrorId}
              firstChoiceRef={firstChoice}
            />
          ) : (
            <FormAlert tone="info">{t("limit.slotFree")}</FormAlert>
          )}
          <SubmitButton pending={pending}>{mustRemove ? t("limit.submit") : t("limit.continue")}</SubmitButton>
        </form>
      )}
    </AuthCard>
  );
}
