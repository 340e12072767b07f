import { Link, useMatches } from "react-router";
import { useTranslation } from "react-i18next";
import type { RouteHandle } from "@/lib/routeTypes";
import { useLocalePath } from "@/i18n/useLocalePath";
import { useDocumentTitle } from "@/ui/useDocumentTitle";
import { laterTitleKey } from "./routeTitle";
import "./LaterPage.css";

/** The page of a route whose full form arrives in a later release: its title and a way home. */
export default function LaterPage() {
  const { t } = useTranslation("common");
  const localePath = useLocalePath();
  const handle = useMatches().at(-1)?.handle as RouteHandle | undefined;
  const title = t(laterTitleKey(handle?.name ?? ""), { defaultValue: t("later.default_title") });
  useDocumentTitle(title);

  return (
    <section className="page later-page" aria-labelledby="later-title">
      <h1 id="later-title" className="page__title">
        {title}
      </h1>
      <p className="later-page__text">{t("later.coming_soon")}</p>
      <Link className="btn btn--primary" to={localePath("/")}>
        {t("go_home")}
      </Link>
    </section>
  );
}
