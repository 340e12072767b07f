import { useTranslation } from "react-i18next";
import { useInfiniteEventList } from "../api/listEvents";
import { CatalogPage } from "@/ui/catalog/CatalogPage";
import { InfiniteEventList } from "../components/InfiniteEventList";
import { UPCOMING_EVENTS } from "../lib/lists";

/** /upcoming: scheduled events, soonest first. */
export default function UpcomingPage() {
  const { t } = useTranslation("catalog");
  const events = useInfiniteEventList(UPCOMING_EVENTS);
  return (
    <CatalogPage title={t("upcoming.title")} intro={t("upcoming.intro")}>
      <InfiniteEventList query={events} empty={t("upcoming.empty")} label={t("upcoming.title")} />
    </CatalogPage>
  );
}
