import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, render } from "@testing-library/react";
import { AD_START_DEADLINE_MS, AdBreak } from "@/ui/player/AdBreak";
import type { AdTracking, PrerollAd } from "@/ui/player/ads";
import { setUpI18n } from "../renderWithApp";

beforeAll(setUpI18n);

function preroll(): { ad: PrerollAd; tracking: Record<string, ReturnType<typeof vi.fn>> } {
  const tracking = {
    trackImpression: vi.fn(),
    errorWithCode: vi.fn(),
    setProgress: vi.fn(),
    setDuration: vi.fn(),
    setMuted: vi.fn(),
    setPaused: vi.fn(),
    complete: vi.fn(),
    skip: vi.fn(),
    click: vi.fn(),
  };
  const ad: PrerollAd = {
    title: "Boots",
    mediaUrl: "https://ads.example.com/boots.mp4",
    duration: 15,
    skipAfter: 5,
    clickThrough: null,
    tracking: tracking as unknown as AdTracking,
  };
  return { ad, tracking };
}

// jsdom plays nothing: play() waits forever, as a video that has not arrived yet.
beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(HTMLMediaElement.prototype, "play").mockImplementation(() => new Promise<void>(() => undefined));
  vi.spyOn(HTMLMediaElement.prototype, "pause").mockImplementation(() => undefined);
  vi.spyOn(HTMLMediaElement.prototype, "load").mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup(); // the ad unmounts (and unloads its video) while load() is still the stub
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("the ad's start deadline", () => {
  it("drops an ad whose video is not playing in time (VAST error 402), and the match starts", () => {
    const { ad, tracking } = preroll();
    const done = vi.fn();
    render(<AdBreak ad={ad} onDone={done} />);
    act(() => vi.advanceTimersByTime(AD_START_DEADLINE_MS - 1));
    expect(done).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(done).toHaveBeenCalledWith("failed");
    expect(tracking.errorWithCode).toHaveBeenCalledWith("402");
    expect(tracking.trackImpression).not.toHaveBeenCalled();
  });

  it("waits as long as the server's setting says", () => {
    const { ad } = preroll();
    const done = vi.fn();
    render(<AdBreak ad={ad} startDeadlineMs={6_000} onDone={done} />);
    act(() => vi.advanceTimersByTime(5_999));
    expect(done).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(done).toHaveBeenCalledWith("failed");
  });

  it("no longer applies once the ad plays: its impression is tracked and it runs on", () => {
    const { ad, tracking } = preroll();
    const done = vi.fn();
    const { container } = render(<AdBreak ad={ad} startDeadlineMs={3_000} onDone={done} />);
    const video = container.querySelector("video");
    expect(video).not.toBeNull();
    act(() => vi.advanceTimersByTime(2_000));
    act(() => {
      fireEvent.playing(video as HTMLVideoElement);
    });
    act(() => vi.advanceTimersByTime(10_000));
    expect(tracking.trackImpression).toHaveBeenCalledOnce();
    expect(done).not.toHaveBeenCalled();
  });
});
