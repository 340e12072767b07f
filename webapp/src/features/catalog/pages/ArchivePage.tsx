import { useMemo } from "react";
import { useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { useInfiniteEventList } from "../api/listEvents";
import { CatalogPage } from "@/ui/catalog/CatalogPage";
import { FilterTabs } from "../components/FilterTabs";
import { InfiniteEventList } from "../components/InfiniteEventList";
import { DATE_FILTERS, eventDateRange, isDateFilter, useFilterNow } from "../lib/dateFilters";
import { ARCHIVED_EVENTS } from "../lib/lists";

/** /archive?date=past_7_days: finished events, narrowed by a date filter kept in the URL. */
export default function ArchivePage() {
  const { t } = useTranslation("catalog");
  const [search] = useSearchParams();
  const requested = search.get("date");
  const filter = isDateFilter(requested) ? requested : "anytime";
  // A "now" rounded to the minute: coming Back to this page asks the same question as before.
  const now = useFilterNow();
  const params = useMemo(() => {
    const range = eventDateRange(filter, now);
    return range ? { ...ARCHIVED_EVENTS, filters: { ...ARCHIVED_EVENTS.filters, event_date: range } } : ARCHIVED_EVENTS;
  }, [filter, now]);
  const events = useInfiniteEventList(params);
  const tabs = DATE_FILTERS.map((key) => ({
    key,
    label: t(`archive.filters.${key}`),
    to: key === "anytime" ? "/archive" : `/archive?date=${key}`,
  }));

  return (
    <CatalogPage
      title={t("archive.title")}
      intro={t("archive.intro")}
      toolbar={<FilterTabs label={t("archive.date_filter")} tabs={tabs} current={filter} />}
    >
      <InfiniteEventList query={events} empty={t("archive.empty")} label={t("archive.title")} />
    </CatalogPage>
  );
}
