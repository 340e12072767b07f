/*
 * The media asset a stream address names (ARCHITECTURE "Media assets and signing"):
 * `/media/live/<asset>/from-…/…` and `/media/vod/<asset>/…` as viewers get them (from this server
 * or an edge in front of it), `/media/live/<asset>.m3u8` as events store them. Any other address
 * names none.
 */
const ASSET = /^\/media\/(?:live|vod)\/([A-Za-z0-9_.-]{1,64}?)(?:\.m3u8)?(?:\/|$)/;

export function assetOf(url: string): string | null {
  try {
    return ASSET.exec(new URL(url, "http://relative.invalid/").pathname)?.[1] ?? null;
  } catch {
    return null;
  }
}
