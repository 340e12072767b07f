import { Toaster } from "sonner";
import { useTranslation } from "react-i18next";
import { directionOf, isLocale, DEFAULT_LOCALE } from "@/i18n/locales";
import { useTheme } from "./theme";
import { TOAST_DURATION_MS } from "@/lib/notify";
import "./Toaster.css";

/**
 * The one toast container: bottom right (bottom left in right-to-left locales), 4 s,
 * dismissible, paused while hovered (sonner's default), in the app's theme.
 */
export function AppToaster() {
  const { t, i18n } = useTranslation("common");
  const { theme } = useTheme();
  const locale = isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
  const dir = directionOf(locale);
  return (
    <Toaster
      className="app-toaster"
      position={dir === "rtl" ? "bottom-left" : "bottom-right"}
      dir={dir}
      theme={theme}
      duration={TOAST_DURATION_MS}
      closeButton
      containerAriaLabel={t("toasts.label")}
      toastOptions={{ closeButtonAriaLabel: t("toasts.close") }}
    />
  );
}
