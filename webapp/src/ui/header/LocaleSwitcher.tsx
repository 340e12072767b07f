import { useId, type ChangeEvent } from "react";
import { useLocation, useNavigate } from "react-router";
import { useTranslation } from "react-i18next";
import { changeLocale } from "@/i18n";
import { LOCALES, isLocale } from "@/i18n/locales";
import { useLocale } from "@/i18n/useLocalePath";
import { GlobeIcon } from "../icons";
import { languageName, switchLocalePath } from "./localeSwitch";

/** Language picker: each option in its own language; switching keeps the page, query and hash. */
export function LocaleSwitcher() {
  const { t } = useTranslation("common");
  const locale = useLocale();
  const location = useLocation();
  const navigate = useNavigate();
  const selectId = useId();

  const onChange = async (event: ChangeEvent<HTMLSelectElement>) => {
    const next = event.target.value;
    if (!isLocale(next) || next === locale) return;
    await changeLocale(next);
    navigate(switchLocalePath(location.pathname + location.search + location.hash, next));
  };

  return (
    <div className="locale-switcher">
      <label className="locale-switcher__label" htmlFor={selectId}>
        <GlobeIcon size={18} />
        <span className="visually-hidden">{t("header.language")}</span>
      </label>
      <select id={selectId} className="locale-switcher__select" value={locale} onChange={onChange}>
        {LOCALES.map((code) => (
          <option key={code} value={code} lang={code}>
            {languageName(code)}
          </option>
        ))}
      </select>
    </div>
  );
}
