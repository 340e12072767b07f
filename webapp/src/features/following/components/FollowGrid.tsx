import { useTranslation } from "react-i18next";
import type { FollowedItem } from "@/entities/followed";
import { useToggleFollow } from "@/ui/follow/useToggleFollow";
import { useFollowedMap } from "../api/followList";
import { FollowTile, FollowTileSkeleton } from "./FollowTile";

interface Props {
  items: readonly FollowedItem[] | undefined;
  /** Where each tile's title leads, if anywhere. */
  linkOf?: (item: FollowedItem) => string | undefined;
  label: string;
}

/** Tiles to follow and unfollow; the follow state is the session's followed map. */
export function FollowGrid({ items, linkOf, label }: Props) {
  const { t } = useTranslation("following");
  const followed = useFollowedMap();
  const toggle = useToggleFollow();
  if (!items) {
    return (
      <>
        <span className="visually-hidden" role="status">
          {t("state.loading")}
        </span>
        <ul className="follow-grid" aria-hidden="true">
          {Array.from({ length: 8 }, (_, index) => (
            <FollowTileSkeleton key={index} />
          ))}
        </ul>
      </>
    );
  }
  return (
    <ul className="follow-grid" aria-label={label}>
      {items.map((item) => (
        <FollowTile
          key={item.id}
          item={item}
          followed={item.id in followed}
          to={linkOf?.(item)}
          pending={toggle.isPending && toggle.variables?.item.id === item.id}
          onToggle={(target, follow) => toggle.mutate({ item: target, follow })}
        />
      ))}
    </ul>
  );
}
