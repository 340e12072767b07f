/*
 * Starting playback on a <video> the way every player here does: with sound when the browser
 * allows it, muted when it does not.
 */

/** Resolves once `video` has its first frame's metadata (at once when it has). */
export function metadataOf(video: HTMLVideoElement): Promise<void> {
  if (video.readyState >= HTMLMediaElement.HAVE_METADATA) return Promise.resolve();
  return new Promise((resolve) => video.addEventListener("loadedmetadata", () => resolve(), { once: true }));
}

/**
 * Plays, muted if the browser refuses sound without a gesture; resolves either way. A play() that
 * came before the source (the engine attaching its MediaSource) or that a new source interrupted
 * is tried again once the media has its metadata.
 */
export async function playWithFallback(video: HTMLVideoElement, attempt = 0): Promise<void> {
  try {
    await video.play();
  } catch (error) {
    if (!(error instanceof DOMException)) return;
    if (error.name === "NotAllowedError") {
      video.muted = true;
      await video.play().catch(() => undefined);
    } else if (attempt < 2) {
      await metadataOf(video);
      return playWithFallback(video, attempt + 1);
    }
  }
}
