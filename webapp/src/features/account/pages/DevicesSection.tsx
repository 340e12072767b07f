import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useErrorText } from "@/api/errors";
import type { Device } from "@/entities/device";
import { useLocale } from "@/i18n/useLocalePath";
import { notify } from "@/lib/notify";
import { FormAlert } from "@/ui/form/FormAlert";
import { useDevices } from "../api/getDevices";
import { useDeleteDevice } from "../api/deleteDevice";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { deviceLabel } from "../lib/deviceLabel";
import "./sections.css";

/**
 * /account/devices: the account's devices, this browser marked. Removing another device signs
 * it out at once: its sessions end and it hears remove-user-device on the socket.
 */
export default function DevicesSection() {
  const { t } = useTranslation("account");
  const errorText = useErrorText();
  const devices = useDevices();

  return (
    <>
      <h2>{t("sections.devices")}</h2>
      <p className="account-intro">{t("devices.intro")}</p>
      {devices.isPending && (
        <p role="status" className="account-note">
          {t("devices.loading")}
        </p>
      )}
      {devices.isError && (
        <FormAlert tone="danger">
          <p className="account-alert__text">{errorText(devices.error)}</p>
          <button type="button" className="btn" onClick={() => void devices.refetch()}>
            {t("devices.retry")}
          </button>
        </FormAlert>
      )}
      {devices.data && (
        <>
          <p className="account-note">
            {t("devices.usage", { used: devices.data.devices.length, limit: devices.data.limit })}
          </p>
          <ul className="account-devices">
            {devices.data.devices.map((device) => (
              <DeviceItem key={device.id} device={device} />
            ))}
          </ul>
        </>
      )}
    </>
  );
}

function DeviceItem({ device }: { device: Device }) {
  const { t } = useTranslation("account");
  const locale = useLocale();
  const errorText = useErrorText();
  const remove = useDeleteDevice();
  const [confirming, setConfirming] = useState(false);
  const date = (iso: string) => new Intl.DateTimeFormat(locale, { dateStyle: "medium" }).format(new Date(iso));
  const label = deviceLabel(device);
  const system = label.system ?? t("devices.unknown_system");
  const title = `${t(`devices.type.${device.deviceType}`)} · ${system}`;
  const titleId = `device-${device.id}`;

  return (
    <li className="account-device" aria-labelledby={titleId} data-current={device.isCurrent || undefined}>
      <div className="account-device__main">
        <p className="account-device__title" id={titleId}>
          {title}
          {device.isCurrent && <span className="account-device__badge">{t("devices.current")}</span>}
        </p>
        {/* The browser by name; its whole identification string for whoever wants it. */}
        <p className="account-device__name" dir="ltr" title={label.browser ? device.deviceName : undefined}>
          {label.browser ?? device.deviceName}
        </p>
        <p className="account-device__dates">
          {t("devices.added", { date: date(device.addedAt) })} ·{" "}
          {t("devices.last_used", { date: date(device.updatedAt) })}
        </p>
      </div>
      {device.isCurrent ? (
        <p className="account-device__hint">{t("devices.current_hint")}</p>
      ) : (
        <button
          type="button"
          className="btn"
          aria-describedby={titleId}
          disabled={remove.isPending}
          aria-busy={remove.isPending || undefined}
          onClick={() => setConfirming(true)}
        >
          {t("devices.remove")}
        </button>
      )}
      {confirming && (
        <ConfirmDialog
          title={t("devices.confirm_title")}
          confirmLabel={t("devices.confirm")}
          cancelLabel={t("devices.cancel")}
          pending={remove.isPending}
          error={remove.error ? errorText(remove.error) : undefined}
          onConfirm={() =>
            remove.mutate(device.id, {
              onSuccess: () => {
                setConfirming(false);
                void notify.success(t("devices.removed"));
              },
            })
          }
          onCancel={() => {
            remove.reset();
            setConfirming(false);
          }}
        >
          <p>{t("devices.confirm_text", { device: title })}</p>
        </ConfirmDialog>
      )}
    </li>
  );
}
