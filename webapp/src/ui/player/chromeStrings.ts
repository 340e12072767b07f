import type { TFunction } from "i18next";
import { addTranslation, setLanguage } from "media-chrome/dist/utils/i18n.js";

const registered = new Set<string>();

/**
 * Gives media-chrome (whose controls label themselves, from a dictionary keyed by its English
 * strings) the viewer's language, from the `player` namespace. Once per language; before the
 * controls are created, so they are labelled in it from the start.
 */
export function applyChromeLanguage(language: string, t: TFunction<"player">): void {
  if (!registered.has(language)) {
    registered.add(language);
    const play = t("chrome.play");
    const pause = t("chrome.pause");
    const mute = t("chrome.mute");
    const unmute = t("chrome.unmute");
    const enterFullscreen = t("chrome.enter_fullscreen");
    const exitFullscreen = t("chrome.exit_fullscreen");
    const enterPip = t("chrome.enter_pip");
    const exitPip = t("chrome.exit_pip");
    const rate = t("chrome.playback_rate");
    const quality = t("chrome.quality");
    const settings = t("chrome.settings");
    addTranslation(language, {
      Play: play,
      play,
      Pause: pause,
      pause,
      Mute: mute,
      mute,
      Unmute: unmute,
      unmute,
      volume: t("chrome.volume"),
      seek: t("chrome.seek"),
      "Enter fullscreen mode": enterFullscreen,
      "enter fullscreen mode": enterFullscreen,
      "Exit fullscreen mode": exitFullscreen,
      "exit fullscreen mode": exitFullscreen,
      "Enter picture in picture mode": enterPip,
      "enter picture in picture mode": enterPip,
      "Exit picture in picture mode": exitPip,
      "exit picture in picture mode": exitPip,
      "Playback rate": rate,
      "Playback rate {playbackRate}": t("chrome.playback_rate_value", { rate: "{playbackRate}" }),
      "current playback rate": t("chrome.current_playback_rate"),
      Quality: quality,
      quality,
      Auto: t("chrome.auto"),
      Settings: settings,
      settings,
      "Seek backward": t("chrome.seek_backward"),
      "Seek forward": t("chrome.seek_forward"),
      "seek back {seekOffset} seconds": t("chrome.seek_back_seconds", { seconds: "{seekOffset}" }),
      "seek forward {seekOffset} seconds": t("chrome.seek_forward_seconds", { seconds: "{seekOffset}" }),
      "video player": t("chrome.video_player"),
      "media loading": t("chrome.loading"),
      "playback time": t("chrome.playback_time"),
      hour: t("chrome.hour"),
      hours: t("chrome.hours"),
      minute: t("chrome.minute"),
      minutes: t("chrome.minutes"),
      second: t("chrome.second"),
      seconds: t("chrome.seconds"),
      "{time} remaining": t("chrome.remaining", { time: "{time}" }),
      "{currentTime} of {totalTime}": t("chrome.time_of", { current: "{currentTime}", total: "{totalTime}" }),
      "video not loaded, unknown time.": t("chrome.unknown_time"),
      "seek to live": t("chrome.seek_to_live"),
      "playing live": t("chrome.playing_live"),
      live: t("chrome.live"),
    });
  }
  setLanguage(language);
}
