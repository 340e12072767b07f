import { useMemo } from "react";
import { Link, useParams } from "react-router";
import { useTranslation } from "react-i18next";
import { useLocalePath } from "@/i18n/useLocalePath";
import { useIsAuthenticated } from "@/session/store";
import { useInfiniteEventList } from "../api/listEvents";
import { useSportCounts } from "../api/getSportCounts";
import { CatalogPage } from "@/ui/catalog/CatalogPage";
import { FilterTabs, type FilterTab } from "../components/FilterTabs";
import { InfiniteEventList } from "../components/InfiniteEventList";
import { LIVE_EVENTS } from "../lib/lists";

const ALL = "all";

/**
 * /live and /live/:sportType: what is on now, with one tab per sport that has something live; a
 * signed-in viewer is also offered multiview (several live events at once), by its address only.
 */
export default function LivePage() {
  const { t } = useTranslation("catalog");
  const localePath = useLocalePath();
  const signedIn = useIsAuthenticated();
  const { sportType } = useParams();
  const counts = useSportCounts();
  const params = useMemo(
    () => (sportType ? { ...LIVE_EVENTS, filters: { ...LIVE_EVENTS.filters, sportType: [sportType] } } : LIVE_EVENTS),
    [sportType],
  );
  const events = useInfiniteEventList(params);

  const tabs: FilterTab[] = [
    { key: ALL, label: t("live.all_sports"), to: "/live" },
    ...(counts.data ?? []).map((sport) => ({
      key: sport.sportType,
      label: t("live.sport_count", { sport: sport.title, count: sport.count }),
      to: `/live/${encodeURIComponent(sport.sportType)}`,
    })),
  ];
  // A sport with nothing live right now still gets its tab while someone is on its page.
  if (sportType && !tabs.some((tab) => tab.key === sportType))
    tabs.push({ key: sportType, label: sportType, to: `/live/${encodeURIComponent(sportType)}` });

  return (
    <CatalogPage
      title={t("live.title")}
      intro={
        <>
          {t("live.intro")}
          {signedIn && (
            <>
              {" "}
              <Link to={localePath("/multiview")}>{t("live.multiview")}</Link>
            </>
          )}
        </>
      }
      toolbar={<FilterTabs label={t("live.sports")} tabs={tabs} current={sportType ?? ALL} />}
    >
      <InfiniteEventList query={events} empty={t("live.empty")} label={t("live.title")} />
    </CatalogPage>
  );
}
