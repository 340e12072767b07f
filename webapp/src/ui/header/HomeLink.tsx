import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { useAppConfig } from "@/lib/config";
import { useLocalePath } from "@/i18n/useLocalePath";
import { LogoMark } from "../LogoMark";

/** Logo and tenant name, linking to the homepage of the current locale. */
export function HomeLink() {
  const { t } = useTranslation("common");
  const name = useAppConfig().name_short;
  const localePath = useLocalePath();
  return (
    <Link className="home-link" to={localePath("/")} aria-label={t("header.home_link", { name })}>
      <LogoMark />
      <span className="home-link__name">{name}</span>
    </Link>
  );
}
