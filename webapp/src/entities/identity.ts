import type { components } from "@/api/schema.gen";
import { NO_TITLE } from "./event";

/** A main category, sub-category (league) or team as the API sends it. */
export type ApiIdentity = components["schemas"]["Identity"];
export type IdentityMediaType = ApiIdentity["media_type"];

/** The social networks of spec §3, in the order they are shown. */
export const SOCIAL_KINDS = ["facebook", "x", "instagram", "youtube", "tiktok", "web", "whatsapp"] as const;
export type SocialKind = (typeof SOCIAL_KINDS)[number];
export interface SocialLink {
  kind: SocialKind;
  url: string;
}

export interface PosterLink {
  url: string;
  targetUrl: string | null;
  target: "_self" | "_blank";
}

export interface IdentityParent {
  id: string;
  title: string;
  mediaType: "identity" | "identity_item";
}

/** Fields every identity has (spec §3 "Identity (main category)"). */
interface IdentityBase {
  id: string;
  title: string;
  /** The short title when the identity has one, else the title. */
  shortTitle: string;
  order: number;
  archived: boolean;
  sportType: string | null;
  posterH: string | null;
  posterF: string | null;
  /** Wide artwork with its link (extendedContent.PosterF / MobilePosterF). */
  posters: PosterLink[];
  mobilePosters: PosterLink[];
  socialLinks: SocialLink[];
}

export interface MainCategory extends IdentityBase {
  mediaType: "identity";
}

/** A league: an identity_item with its parent categories (spec §3 "Sub-category"). */
export interface SubCategory extends IdentityBase {
  mediaType: "identity_item";
  /** Parent (main category) ids. */
  mainCategories: string[];
  /** Position within each parent, keyed by the parent's id. */
  parentOrder: Record<string, number>;
  identityIds: string[];
  parents: IdentityParent[];
}

export interface Team extends IdentityBase {
  mediaType: "team";
  /** The name to display: the short name with the teams-short-name option. */
  name: string;
  shortName: string;
  logoUrl: string | null;
  color: string | null;
  identityIds: string[];
  parents: IdentityParent[];
}

export type Identity = MainCategory | SubCategory | Team;

export interface IdentityMapOptions {
  teamsShortName: boolean;
}

function socialLinksOf(links: components["schemas"]["SocialLinks"]): SocialLink[] {
  // The API still calls X by its old name.
  const byKind: Partial<Record<SocialKind, string | undefined>> = { ...links, x: links.x || links.twitter };
  return SOCIAL_KINDS.flatMap((kind) => {
    const url = byKind[kind]?.trim();
    return url && /^https?:\/\//i.test(url) ? [{ kind, url }] : [];
  });
}

function posterLinks(list: readonly components["schemas"]["PosterLink"][] | undefined): PosterLink[] {
  return (list ?? []).map((p) => ({ url: p.url, targetUrl: p.targetUrl ?? null, target: p.target }));
}

function parentsOf(api: ApiIdentity): IdentityParent[] {
  return api.mediaParentIdentities.map((p) => ({ id: p._id, title: p.title || NO_TITLE, mediaType: p.media_type }));
}

function base(api: ApiIdentity): IdentityBase {
  const title = api.title || NO_TITLE;
  return {
    id: api._id,
    title,
    shortTitle: api.shortTitle || title,
    order: api.order,
    archived: api.archived,
    sportType: api.sportType ?? null,
    posterH: api.content.PosterH ?? null,
    posterF: api.content.PosterF ?? null,
    posters: posterLinks(api.extendedContent.PosterF),
    mobilePosters: posterLinks(api.extendedContent.MobilePosterF),
    socialLinks: socialLinksOf(api.socialMediasLinks),
  };
}

/** The one API → UI mapping of categories, leagues and teams. */
export function mapIdentity(api: ApiIdentity, options: IdentityMapOptions = { teamsShortName: false }): Identity {
  switch (api.media_type) {
    case "identity":
      return { ...base(api), mediaType: "identity" };
    case "identity_item":
      return {
        ...base(api),
        mediaType: "identity_item",
        mainCategories: [...api.mainCategories],
        parentOrder: { ...api.media_parent_order },
        identityIds: [...api.identityId],
        parents: parentsOf(api),
      };
    case "team": {
      const title = api.title || NO_TITLE;
      const shortName = api.shortName || api.shortTitle || title;
      return {
        ...base(api),
        mediaType: "team",
        name: options.teamsShortName ? shortName : title,
        shortName,
        logoUrl: api.logo ?? null,
        color: api.color || null,
        identityIds: [...api.identityId],
        parents: parentsOf(api),
      };
    }
  }
}

export function mapIdentities(entries: readonly ApiIdentity[], options?: IdentityMapOptions): Identity[] {
  return entries.map((entry) => mapIdentity(entry, options));
}

/** A sub-category belongs to a main category when that category is one of its parents. */
export function belongsToCategory(item: SubCategory, mainId: string): boolean {
  return item.mainCategories.includes(mainId) || item.identityIds.includes(mainId);
}
