import type { Ref } from "react";
import { useTranslation } from "react-i18next";
import type { Device } from "@/entities/device";
import { useLocale } from "@/i18n/useLocalePath";

interface DeviceChoiceProps {
  devices: Device[];
  selected: string | null;
  onSelect: (id: string) => void;
  disabled: boolean;
  error?: string;
  errorId: string;
  /** Focused when the form is sent without a choice. */
  firstChoiceRef?: Ref<HTMLInputElement>;
}

/** The account's devices as radio choices: type and system, the browser string, when last used. */
export function DeviceChoice({
  devices,
  selected,
  onSelect,
  disabled,
  error,
  errorId,
  firstChoiceRef,
}: DeviceChoiceProps) {
  const { t } = useTranslation("auth");
  const locale = useLocale();
  const formatDate = (iso: string) => {
    const date = new Date(iso);
    return Number.isNaN(date.getTime())
      ? iso
      : new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(date);
  };
  return (
    <fieldset
      className="auth-devices"
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? errorId : undefined}
      disabled={disabled}
    >
      <legend className="auth-devices__legend">{t("limit.devicesLegend")}</legend>
      <ul className="auth-devices__list">
        {devices.map((device, index) => {
          const inputId = `auth-device-${device.id}`;
          const system = [device.osName, device.osVersion].filter(Boolean).join(" ");
          return (
            <li key={device.id} className="auth-devices__item">
              <input
                ref={index === 0 ? firstChoiceRef : undefined}
                id={inputId}
                type="radio"
                name="device"
                className="auth-devices__radio"
                value={device.id}
                checked={selected === device.id}
                onChange={() => onSelect(device.id)}
              />
              <label htmlFor={inputId} className="auth-devices__label">
                <span className="auth-devices__name">
                  {t(`limit.deviceTypes.${device.deviceType}`)}
                  {system && ` · ${system}`}
                </span>
                <span className="auth-devices__agent" title={device.deviceName}>
                  {device.deviceName}
                </span>
                <span className="auth-devices__used">
                  {t("limit.lastUsed", { date: formatDate(device.updatedAt) })}
                </span>
              </label>
            </li>
          );
        })}
      </ul>
      {error && (
        <p id={errorId} className="form-field__error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
