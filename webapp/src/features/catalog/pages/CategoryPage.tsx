import { useMemo } from "react";
import { useParams } from "react-router";
import { useTranslation } from "react-i18next";
import type { Identity, MainCategory } from "@/entities/identity";
import { FollowButton } from "@/ui/follow/FollowButton";
import { followedItemOf } from "@/ui/follow/followedItem";
import { useIdentity } from "../api/getIdentity";
import { useIdentityList } from "../api/listIdentities";
import { IdentityCard, IdentityCardSkeleton } from "../components/IdentityCard";
import { IdentityEvents } from "../components/IdentityEvents";
import { IdentityHeader } from "../components/IdentityHeader";
import { IdentityPageFrame } from "../components/IdentityPageFrame";
import { Rail } from "@/ui/catalog/Rail";
import { useEntityOrNotFound } from "@/lib/useEntityOrNotFound";

const isCategory = (identity: Identity): identity is MainCategory => identity.mediaType === "identity";
const subKey = (item: Identity) => item.id;

function SubCategories({ mainId }: { mainId: string }) {
  const { t } = useTranslation("catalog");
  // Spec §7: sub-categories are fetched with page 0, size 100, in their parent's order.
  const items = useIdentityList({ mediaType: "identity_item", parentId: mainId });
  return (
    <Rail
      title={t("category.sub_categories")}
      size="narrow"
      query={items}
      items={items.data?.entries}
      itemKey={subKey}
      renderItem={(item) => (
        <IdentityCard
          identity={item}
          to={`/category/${encodeURIComponent(mainId)}/sub-category/${encodeURIComponent(item.id)}`}
        />
      )}
      skeleton={<IdentityCardSkeleton />}
    />
  );
}

/** /category/:mainId: a main category (a sport) with its sub-categories and events. */
export default function CategoryPage() {
  const { mainId = "" } = useParams();
  const query = useEntityOrNotFound(useIdentity(mainId), "category", isCategory);
  const filters = useMemo(() => ({ "identities.id": [mainId], "identities.type": "identity" as const }), [mainId]);

  return (
    <IdentityPageFrame query={query}>
      {(category) => (
        <>
          <IdentityHeader identity={category} actions={<FollowButton item={followedItemOf(category)} />} />
          <SubCategories mainId={category.id} />
          <IdentityEvents filters={filters} />
        </>
      )}
    </IdentityPageFrame>
  );
}
