import { useTranslation } from "react-i18next";
import { useInfiniteClipList } from "@/session/catalog/listClips";
import { CatalogPage } from "@/ui/catalog/CatalogPage";
import { InfiniteEventList } from "../components/InfiniteEventList";
import { HIGHLIGHTS } from "../lib/lists";

/** /highlight: highlights and clips of every game, newest first. */
export default function HighlightPage() {
  const { t } = useTranslation("catalog");
  const clips = useInfiniteClipList(HIGHLIGHTS);
  return (
    <CatalogPage title={t("highlight.title")} intro={t("highlight.intro")}>
      <InfiniteEventList query={clips} empty={t("highlight.empty")} label={t("highlight.title")} />
    </CatalogPage>
  );
}
