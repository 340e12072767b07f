import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import type { FollowedItem } from "@/entities/followed";
import { useLocalePath } from "@/i18n/useLocalePath";
import { FallbackImage } from "@/ui/images/FallbackImage";

interface Props {
  item: FollowedItem;
  followed: boolean;
  onToggle: (item: FollowedItem, follow: boolean) => void;
  /** Where the tile's title leads (its teams, its leagues); none for a team. */
  to?: string;
  pending?: boolean;
}

/**
 * A followable league, category or team: teams show their logo, the others their PosterH
 * (spec §3 "Followed item"), the (short) title, and a Follow / Following toggle.
 */
export function FollowTile({ item, followed, onToggle, to, pending = false }: Props) {
  const { t } = useTranslation("following");
  const localePath = useLocalePath();
  const isTeam = item.type === "team";
  const title = (
    <span className="follow-tile__title" dir="auto">
      {item.title}
    </span>
  );
  return (
    <li className={`follow-tile follow-tile--${isTeam ? "logo" : "poster"}`}>
      <FallbackImage
        className="follow-tile__image"
        src={item.imageUrl}
        alt=""
        fallback={isTeam ? "generic" : "banner"}
        width={isTeam ? 240 : 640}
        height={isTeam ? 240 : 360}
      />
      {to ? (
        <Link className="follow-tile__link" to={localePath(to)}>
          {title}
        </Link>
      ) : (
        title
      )}
      <button
        type="button"
        className={`btn follow-tile__toggle${followed ? " btn--primary" : ""}`}
        aria-pressed={followed}
        aria-label={
          followed ? t("action.unfollowNamed", { name: item.title }) : t("action.followNamed", { name: item.title })
        }
        disabled={pending}
        onClick={() => onToggle(item, !followed)}
      >
        {followed ? t("action.following") : t("action.follow")}
      </button>
    </li>
  );
}

export function FollowTileSkeleton() {
  return (
    <li className="follow-tile follow-tile--skeleton" aria-hidden="true">
      <div className="follow-tile__image" />
      <span className="follow-tile__title">&nbsp;</span>
    </li>
  );
}
