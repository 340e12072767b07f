import { Link } from "react-router";
import type { Identity } from "@/entities/identity";
import { useLocalePath } from "@/i18n/useLocalePath";
import { FallbackImage } from "@/ui/images/FallbackImage";
import "./IdentityCard.css";

/** A league, category or team as a tile linking to its page: teams show their logo, the others their poster. */
export function IdentityCard({ identity, to }: { identity: Identity; to: string }) {
  const localePath = useLocalePath();
  const isTeam = identity.mediaType === "team";
  return (
    <Link className={`identity-card identity-card--${isTeam ? "logo" : "poster"}`} to={localePath(to)}>
      {isTeam ? (
        <FallbackImage
          className="identity-card__image"
          src={identity.logoUrl ?? identity.posterH}
          alt=""
          fallback="generic"
          width={240}
          height={240}
        />
      ) : (
        <FallbackImage
          className="identity-card__image"
          src={identity.posterH}
          alt=""
          fallback="banner"
          width={640}
          height={360}
        />
      )}
      <span className="identity-card__title" dir="auto">
        {isTeam ? identity.name : identity.title}
      </span>
    </Link>
  );
}

export function IdentityCardSkeleton({ variant = "poster" }: { variant?: "poster" | "logo" }) {
  return (
    <div className={`identity-card identity-card--${variant} identity-card--skeleton`} aria-hidden="true">
      <div className="identity-card__image" />
      <span className="identity-card__title">&nbsp;</span>
    </div>
  );
}
