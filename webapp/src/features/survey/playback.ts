/**
 * Spec §4: while the survey shows, a playing video is paused unless it is fullscreen; after Later
 * or close a paused video resumes unless it is fullscreen; after submit it resumes. Works on the
 * player's <video> elements (src/ui/player) and any other on the page.
 */
function isFullscreen(video: HTMLVideoElement): boolean {
  const full = document.fullscreenElement;
  return !!full && (full === video || full.contains(video));
}

export interface PausedPlayback {
  resume(options: { evenInFullscreen: boolean }): void;
}

export function pausePlayingVideos(root: ParentNode = document): PausedPlayback {
  const paused = Array.from(root.querySelectorAll("video")).filter(
    (video) => !video.paused && !video.ended && !isFullscreen(video),
  );
  for (const video of paused) video.pause();
  return {
    resume({ evenInFullscreen }) {
      for (const video of paused) {
        if (!video.isConnected || !video.paused) continue;
        if (!evenInFullscreen && isFullscreen(video)) continue;
        void video.play()?.catch(() => undefined);
      }
    },
  };
}
