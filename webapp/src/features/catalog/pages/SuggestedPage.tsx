import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { followedIdentitiesIds, useIsAuthenticated, useSession } from "@/session/store";
import { useInfiniteEventList } from "../api/listEvents";
import { CatalogPage } from "@/ui/catalog/CatalogPage";
import { InfiniteEventList } from "../components/InfiniteEventList";
import { suggestedEvents } from "../lib/lists";

const NONE: string[] = [];

/** /suggested: events of the leagues and teams the viewer follows, or of everything for others. */
export default function SuggestedPage() {
  const { t } = useTranslation("catalog");
  const signedIn = useIsAuthenticated();
  const followed = useSession(followedIdentitiesIds);
  const identityIds = signedIn ? followed : NONE;
  const params = useMemo(() => suggestedEvents(identityIds), [identityIds]);
  const events = useInfiniteEventList(params);
  return (
    <CatalogPage
      title={t("suggested.title")}
      intro={identityIds.length ? t("suggested.intro_followed") : t("suggested.intro")}
    >
      <InfiniteEventList query={events} empty={t("suggested.empty")} label={t("suggested.title")} />
    </CatalogPage>
  );
}
