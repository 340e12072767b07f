import { useTranslation } from "react-i18next";
import { useInfiniteEventList } from "../api/listEvents";
import { CatalogPage } from "@/ui/catalog/CatalogPage";
import { InfiniteEventList } from "../components/InfiniteEventList";
import { LATEST_VIDEOS } from "../lib/lists";

/** /latest: the newest videos, full games and highlights together. */
export default function LatestPage() {
  const { t } = useTranslation("catalog");
  const events = useInfiniteEventList(LATEST_VIDEOS);
  return (
    <CatalogPage title={t("latest.title")} intro={t("latest.intro")}>
      <InfiniteEventList query={events} empty={t("latest.empty")} label={t("latest.title")} />
    </CatalogPage>
  );
}
