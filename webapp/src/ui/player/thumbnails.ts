/*
 * Seek previews (issue 29 §5): an uploaded or recorded asset has sprite sheets of thumbnails and a
 * WebVTT naming one per few seconds (`thumbs-001.jpg#xywh=…`) beside its master. media-chrome's seek
 * bar shows the one under the pointer when the media has a `<track kind="metadata"
 * label="thumbnails">` whose cues it can read. The VTT lies in the stream's own directory, under its
 * token: the asset's for a whole asset's master, one made for the range for a clip (in the clip's
 * directory). Live streams and archived games (a sample looped) have none, nor has an address
 * naming a sample rather than an asset. An asset without them (a sample's, a recording whose
 * previews are still being made) answers 404: the track has no cues, and the seek bar shows times alone.
 */
import { besideStream, parseSignedUrl } from "./streamUrl";

/** The label media-chrome looks for. */
export const THUMBNAILS_LABEL = "thumbnails";
const THUMBNAILS_FILE = "thumbnails.vtt";
/** An asset's own master or a clip of it: `vod/<asset id>/index.m3u8`, `vod/<asset id>/clip-<from>-<to>/index.m3u8`. */
const WITH_PREVIEWS = /^vod\/[0-9a-f]{24}\/(?:clip-\d{1,13}-\d{1,13}\/)?index\.m3u8$/;

/** The seek previews' VTT of a signed stream address, beside it with its token; null when it has none. */
export function thumbnailsUrl(streamUrl: string): string | null {
  const signed = parseSignedUrl(streamUrl);
  if (!signed || !WITH_PREVIEWS.test(signed.path)) return null;
  return besideStream(signed, THUMBNAILS_FILE);
}

/**
 * Gives `video` the thumbnails track for `src` (added once; a new address, such as the same VTT under
 * a renewed token, loads again), or takes it away (null). The track element, if there is one.
 */
export function showThumbnails(video: HTMLVideoElement, src: string | null): HTMLTrackElement | null {
  let element = video.querySelector<HTMLTrackElement>(`track[label="${THUMBNAILS_LABEL}"]`);
  if (!src) {
    element?.remove();
    return null;
  }
  if (element?.getAttribute("src") === src) return element;
  if (!element) {
    element = document.createElement("track");
    element.kind = "metadata";
    element.label = THUMBNAILS_LABEL;
    element.default = true;
    element.src = src;
    video.append(element);
  } else {
    element.src = src;
  }
  // Loaded and read but never shown: a metadata track's cues load once it is not disabled (`default`
  // makes it so only when the media is first loaded, which may have been before it was added).
  const track = element.track as TextTrack | undefined;
  if (track && track.mode === "disabled") track.mode = "hidden";
  return element;
}
