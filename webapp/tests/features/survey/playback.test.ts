import { afterEach, describe, expect, it, vi } from "vitest";
import { pausePlayingVideos } from "@/features/survey/playback";

/** A <video> whose playing state the test decides (jsdom plays nothing). */
function video(playing: boolean): HTMLVideoElement {
  const element = document.createElement("video");
  let paused = !playing;
  Object.defineProperty(element, "paused", { get: () => paused });
  element.pause = vi.fn(() => void (paused = true));
  element.play = vi.fn(() => ((paused = false), Promise.resolve()));
  document.body.append(element);
  return element;
}

function fullscreen(element: Element | null) {
  Object.defineProperty(document, "fullscreenElement", { configurable: true, get: () => element });
}

afterEach(() => {
  document.body.innerHTML = "";
  fullscreen(null);
});

describe("the survey and a playing video (spec §4)", () => {
  it("pauses a playing video and resumes it afterwards; a paused one stays paused", () => {
    const playing = video(true);
    const stopped = video(false);
    const paused = pausePlayingVideos();
    expect(playing.pause).toHaveBeenCalled();
    expect(stopped.pause).not.toHaveBeenCalled();
    paused.resume({ evenInFullscreen: false });
    expect(playing.play).toHaveBeenCalled();
    expect(stopped.play).not.toHaveBeenCalled();
  });

  it("leaves a fullscreen video playing", () => {
    const playing = video(true);
    fullscreen(playing);
    pausePlayingVideos();
    expect(playing.pause).not.toHaveBeenCalled();
  });

  it("after Later or close, does not resume a video that went fullscreen; after submit it does", () => {
    const first = video(true);
    const later = pausePlayingVideos();
    fullscreen(first);
    later.resume({ evenInFullscreen: false });
    expect(first.play).not.toHaveBeenCalled();
    later.resume({ evenInFullscreen: true });
    expect(first.play).toHaveBeenCalled();
  });
});
