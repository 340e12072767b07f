import type { FollowedItem } from "@/entities/followed";
import type { Identity } from "@/entities/identity";

/**
 * A category, league or team as something to follow (spec §3 "Followed item"): its type is its
 * media type (follow/save checks that they match), teams show their logo, the others PosterH.
 */
export function followedItemOf(identity: Identity): FollowedItem {
  if (identity.mediaType === "team") {
    return {
      id: identity.id,
      title: identity.name,
      type: "team",
      imageUrl: identity.logoUrl,
      identitiesId: [...identity.identityIds],
    };
  }
  return {
    id: identity.id,
    title: identity.title,
    type: identity.mediaType,
    imageUrl: identity.posterH,
    identitiesId: identity.mediaType === "identity_item" ? [...identity.identityIds] : [],
  };
}
