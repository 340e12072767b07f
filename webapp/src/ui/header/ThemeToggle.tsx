import { useTranslation } from "react-i18next";
import { useTheme } from "../theme";
import { MoonIcon, SunIcon } from "../icons";

/** Light/dark switch, shown only when the tenant enables the white theme. */
export function ThemeToggle() {
  const { t } = useTranslation("common");
  const { theme, canSwitch, toggleTheme } = useTheme();
  if (!canSwitch) return null;
  const label = theme === "dark" ? t("header.theme_to_light") : t("header.theme_to_dark");
  return (
    <button type="button" className="icon-button" onClick={toggleTheme} aria-label={label} title={label}>
      {theme === "dark" ? <SunIcon /> : <MoonIcon />}
    </button>
  );
}
