import bannerDark from "./banner-dark.svg";
import bannerLight from "./banner-light.svg";
import verticalBannerDark from "./vertical-banner-dark.svg";
import verticalBannerLight from "./vertical-banner-light.svg";
import genericDark from "./generic-dark.svg";
import genericLight from "./generic-light.svg";

/** The image fallbacks of spec §2: banner, vertical banner and generic, per theme. */
export type PlaceholderKind = "banner" | "vertical_banner" | "generic";
export type PlaceholderTheme = "dark" | "light";

const PLACEHOLDERS: Record<PlaceholderKind, Record<PlaceholderTheme, string>> = {
  banner: { dark: bannerDark, light: bannerLight },
  vertical_banner: { dark: verticalBannerDark, light: verticalBannerLight },
  generic: { dark: genericDark, light: genericLight },
};

export function placeholderFor(kind: PlaceholderKind, theme: PlaceholderTheme): string {
  return PLACEHOLDERS[kind][theme];
}
