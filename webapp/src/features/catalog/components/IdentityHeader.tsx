import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Identity, SocialKind } from "@/entities/identity";
import { FallbackImage } from "@/ui/images/FallbackImage";
import "./IdentityHeader.css";

/** Networks are brand names, the same in every language; only the website needs words. */
const NETWORK_NAMES: Record<Exclude<SocialKind, "web">, string> = {
  facebook: "Facebook",
  x: "X",
  instagram: "Instagram",
  youtube: "YouTube",
  tiktok: "TikTok",
  whatsapp: "WhatsApp",
};

/**
 * The top of a league, category or team page: artwork, title, where it belongs, social links,
 * and the page's actions (Follow) at the end of the title row.
 */
export function IdentityHeader({
  identity,
  eyebrow,
  actions,
  children,
}: {
  identity: Identity;
  eyebrow?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  const { t } = useTranslation("catalog");
  const isTeam = identity.mediaType === "team";
  const title = isTeam ? identity.name : identity.title;
  const artwork = identity.posters[0]?.url ?? identity.posterF ?? identity.posterH;

  return (
    <header
      className="identity-header"
      style={isTeam && identity.color ? ({ "--identity-color": identity.color } as React.CSSProperties) : undefined}
    >
      <FallbackImage
        className="identity-header__banner"
        src={artwork}
        alt=""
        fallback="banner"
        width={1280}
        height={360}
        loading="eager"
      />
      <div className="identity-header__body">
        {isTeam && (
          <FallbackImage
            className="identity-header__logo"
            src={identity.logoUrl}
            alt={t("team.logo_alt", { name: identity.title })}
            fallback="generic"
            width={72}
            height={72}
            loading="eager"
          />
        )}
        <div className="identity-header__text">
          {eyebrow && <p className="identity-header__eyebrow">{eyebrow}</p>}
          <h1 className="identity-header__title" dir="auto">
            {title}
          </h1>
          {identity.socialLinks.length > 0 && (
            <ul className="identity-header__social" aria-label={t("social.label")}>
              {identity.socialLinks.map((link) => {
                const network = link.kind === "web" ? t("social.web") : NETWORK_NAMES[link.kind];
                return (
                  <li key={link.kind}>
                    <a
                      href={link.url}
                      target="_blank"
                      rel="noopener noreferrer"
                      aria-label={t("social.link_label", { network, name: identity.title })}
                    >
                      {network}
                    </a>
                  </li>
                );
              })}
            </ul>
          )}
          {children}
        </div>
        {actions && <div className="identity-header__actions">{actions}</div>}
      </div>
    </header>
  );
}

export function IdentityHeaderSkeleton() {
  return (
    <div className="identity-header identity-header--skeleton" aria-hidden="true">
      <div className="identity-header__banner" />
      <div className="identity-header__body">
        <div className="identity-header__text">
          <span className="identity-header__title">&nbsp;</span>
        </div>
      </div>
    </div>
  );
}
