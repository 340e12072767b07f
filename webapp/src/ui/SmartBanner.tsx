import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useAppConfig } from "@/lib/config";
import { LogoMark } from "./LogoMark";
import {
  dismissSmartBanner,
  isSmartBannerDismissed,
  smartBannerClosedMinutes,
  smartBannerStoreUrl,
} from "./smartBanner";
import "./SmartBanner.css";

/** The top "get mobile app" banner for mobile browsers other than Safari (spec §2). */
export function SmartBanner() {
  const { t } = useTranslation("common");
  const config = useAppConfig();
  const [dismissed, setDismissed] = useState(isSmartBannerDismissed);
  const storeUrl = smartBannerStoreUrl(navigator.userAgent, config.smart_banner);
  if (dismissed || !storeUrl) return null;

  const close = () => {
    dismissSmartBanner(smartBannerClosedMinutes(config.smart_banner, import.meta.env.PROD));
    setDismissed(true);
  };

  return (
    <aside className="smart-banner" aria-label={t("smart_banner.label")}>
      <button type="button" className="smart-banner__close" onClick={close} aria-label={t("smart_banner.close")}>
        <span aria-hidden="true">×</span>
      </button>
      <LogoMark size={40} />
      <p className="smart-banner__text">
        <strong>{config.name_short}</strong>
        <span>{t("get_mobile_app")}</span>
      </p>
      <a className="btn btn--primary smart-banner__get" href={storeUrl} rel="noopener">
        {t("smart_banner.get")}
      </a>
    </aside>
  );
}
