import { useState, type ImgHTMLAttributes } from "react";
import { placeholderFor, type PlaceholderKind } from "./placeholders";
import { useDocumentTheme } from "./useDocumentTheme";

type Props = Omit<ImgHTMLAttributes<HTMLImageElement>, "src" | "width" | "height" | "alt"> & {
  src: string | null | undefined;
  alt: string;
  /** Which placeholder stands in when there is no image or it fails to load. */
  fallback: PlaceholderKind;
  /** Intrinsic size: reserves the space before the image arrives (no layout shift). */
  width: number;
  height: number;
};

/**
 * An image that lazy-loads and falls back to the theme's placeholder when the address is missing
 * or broken.
 */
export function FallbackImage({ src, alt, fallback, width, height, loading = "lazy", ...rest }: Props) {
  const theme = useDocumentTheme();
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const usable = src && src !== failedSrc ? src : null;
  return (
    <img
      {...rest}
      src={usable ?? placeholderFor(fallback, theme)}
      alt={alt}
      width={width}
      height={height}
      loading={loading}
      decoding="async"
      data-placeholder={usable ? undefined : fallback}
      onError={() => {
        if (usable) setFailedSrc(usable);
      }}
    />
  );
}
