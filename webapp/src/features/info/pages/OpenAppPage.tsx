import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { useAppConfig } from "@/lib/config";
import { useLocalePath } from "@/i18n/useLocalePath";
import { LogoMark } from "@/ui/LogoMark";
import { useDocumentTitle } from "@/ui/useDocumentTitle";
import "../components/Info.css";

/** /open-app: invites the viewer to the mobile apps, with the tenant's store links. */
export default function OpenAppPage() {
  const { t } = useTranslation("info");
  const { name_short: name, smart_banner: banner } = useAppConfig();
  const localePath = useLocalePath();
  const title = t("open_app.title", { name });
  useDocumentTitle(title);
  const stores = [
    { url: banner.android_url, label: t("open_app.google_play") },
    { url: banner.ios_url, label: t("open_app.app_store") },
  ].filter((store): store is { url: string; label: string } => !!store.url);

  return (
    <section className="page open-app" aria-labelledby="open-app-title">
      <LogoMark size={72} />
      <h1 id="open-app-title" className="page__title">
        {title}
      </h1>
      {stores.length > 0 ? (
        <>
          <p className="open-app__text">{t("open_app.text", { name })}</p>
          <ul className="open-app__stores">
            {stores.map((store) => (
              <li key={store.url}>
                <a className="btn btn--primary open-app__store" href={store.url} rel="noopener">
                  {store.label}
                </a>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="open-app__text">{t("open_app.unavailable", { name })}</p>
      )}
      <Link className="btn btn--ghost" to={localePath("/")}>
        {t("open_app.continue_web")}
      </Link>
    </section>
  );
}
