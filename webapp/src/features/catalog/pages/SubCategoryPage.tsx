import { useMemo } from "react";
import { Link, useParams } from "react-router";
import { belongsToCategory, type Identity, type SubCategory } from "@/entities/identity";
import { useLocalePath } from "@/i18n/useLocalePath";
import { FollowButton } from "@/ui/follow/FollowButton";
import { followedItemOf } from "@/ui/follow/followedItem";
import { useIdentity } from "../api/getIdentity";
import { IdentityEvents } from "../components/IdentityEvents";
import { IdentityHeader } from "../components/IdentityHeader";
import { IdentityPageFrame } from "../components/IdentityPageFrame";
import { useEntityOrNotFound } from "@/lib/useEntityOrNotFound";

/** /category/:mainId/sub-category/:subId: one sub-category of a category and its events. */
export default function SubCategoryPage() {
  const { mainId = "", subId = "" } = useParams();
  const localePath = useLocalePath();
  const isChild = (identity: Identity): identity is SubCategory =>
    identity.mediaType === "identity_item" && belongsToCategory(identity, mainId);
  const query = useEntityOrNotFound(useIdentity(subId), "category", isChild);
  const filters = useMemo(() => ({ "identities.id": [subId], "identities.type": "identity_item" as const }), [subId]);

  return (
    <IdentityPageFrame query={query}>
      {(item) => {
        const parent = item.parents.find((p) => p.id === mainId);
        return (
          <>
            <IdentityHeader
              identity={item}
              actions={<FollowButton item={followedItemOf(item)} />}
              eyebrow={
                parent && <Link to={localePath(`/category/${encodeURIComponent(parent.id)}`)}>{parent.title}</Link>
              }
            />
            <IdentityEvents filters={filters} />
          </>
        );
      }}
    </IdentityPageFrame>
  );
}
