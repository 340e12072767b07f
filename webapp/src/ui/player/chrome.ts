/*
 * media-chrome's React wrappers for the elements the player uses, and only those: its own
 * `media-chrome/react` imports every element it has (cast, AirPlay, captions, previews, themes...),
 * which the player would download for nothing. Made the way `media-chrome/react` makes them.
 */
import React from "react";
import { createComponent } from "ce-la-react";
import ControlBarElement from "media-chrome/dist/media-control-bar.js";
import ControllerElement from "media-chrome/dist/media-controller.js";
import FullscreenButtonElement from "media-chrome/dist/media-fullscreen-button.js";
import LoadingIndicatorElement from "media-chrome/dist/media-loading-indicator.js";
import MuteButtonElement from "media-chrome/dist/media-mute-button.js";
import PipButtonElement from "media-chrome/dist/media-pip-button.js";
import PlayButtonElement from "media-chrome/dist/media-play-button.js";
import SeekBackwardElement from "media-chrome/dist/media-seek-backward-button.js";
import SeekForwardElement from "media-chrome/dist/media-seek-forward-button.js";
import TimeDisplayElement from "media-chrome/dist/media-time-display.js";
import TimeRangeElement from "media-chrome/dist/media-time-range.js";
import VolumeRangeElement from "media-chrome/dist/media-volume-range.js";
// The menus build their items from this element; it defines itself when imported.
import "media-chrome/dist/menu/media-chrome-menu-item.js";
import RateMenuElement from "media-chrome/dist/menu/media-playback-rate-menu.js";
import RateMenuButtonElement from "media-chrome/dist/menu/media-playback-rate-menu-button.js";
import RenditionMenuElement from "media-chrome/dist/menu/media-rendition-menu.js";
import RenditionMenuButtonElement from "media-chrome/dist/menu/media-rendition-menu-button.js";

export type MediaControllerElement = ControllerElement;

/**
 * The quality menu rebuilds its items whenever the picture's size changes, which automatic
 * quality does at any time: an open menu lost the item under the viewer's finger (and with it the
 * focus, which closes the menu). While it is open, the size the controller sends it waits until it
 * closes. (The controller sets it with setAttribute; a custom element's attributeChangedCallback is
 * fixed when it is defined, so the attribute is held back on its way in.)
 */
const SIZE_ATTRIBUTES = new Set(["mediaheight", "mediawidth"]);
const heldSizes = new WeakMap<Element, Map<string, string | null>>();
const renditionMenu = RenditionMenuElement.prototype as unknown as HTMLElement;
const setAttribute = HTMLElement.prototype.setAttribute;
const removeAttribute = HTMLElement.prototype.removeAttribute;

function holdWhileOpen(menu: HTMLElement, name: string, value: string | null): boolean {
  if (!SIZE_ATTRIBUTES.has(name.toLowerCase()) || menu.hidden) return false;
  let held = heldSizes.get(menu);
  if (!held) {
    heldSizes.set(menu, (held = new Map()));
    const onToggle = (event: Event) => {
      if ((event as ToggleEvent).newState !== "closed") return;
      menu.removeEventListener("toggle", onToggle);
      const sizes = heldSizes.get(menu);
      heldSizes.delete(menu);
      for (const [attribute, size] of sizes ?? [])
        if (size === null) removeAttribute.call(menu, attribute);
        else setAttribute.call(menu, attribute, size);
    };
    menu.addEventListener("toggle", onToggle);
  }
  held.set(name.toLowerCase(), value);
  return true;
}

renditionMenu.setAttribute = function (this: HTMLElement, name: string, value: string) {
  if (!holdWhileOpen(this, name, value)) setAttribute.call(this, name, value);
};
renditionMenu.removeAttribute = function (this: HTMLElement, name: string) {
  if (!holdWhileOpen(this, name, null)) removeAttribute.call(this, name);
};

/** Props to attributes as media-chrome's own wrappers map them. */
function toAttributeValue(value: unknown): unknown {
  if (typeof value === "boolean") return value ? "" : undefined;
  if (typeof value === "function") return undefined;
  const primitive = (item: unknown) => ["string", "number", "boolean"].includes(typeof item);
  if (Array.isArray(value) && value.every(primitive)) return value.join(" ");
  if (typeof value === "object" && value !== null) return undefined;
  return value;
}

const options = { react: React, toAttributeValue, defaultProps: { suppressHydrationWarning: true } };

export const MediaController = createComponent({
  tagName: "media-controller",
  elementClass: ControllerElement,
  ...options,
});
export const MediaControlBar = createComponent({
  tagName: "media-control-bar",
  elementClass: ControlBarElement,
  ...options,
});
export const MediaPlayButton = createComponent({
  tagName: "media-play-button",
  elementClass: PlayButtonElement,
  ...options,
});
export const MediaSeekBackwardButton = createComponent({
  tagName: "media-seek-backward-button",
  elementClass: SeekBackwardElement,
  ...options,
});
export const MediaSeekForwardButton = createComponent({
  tagName: "media-seek-forward-button",
  elementClass: SeekForwardElement,
  ...options,
});
export const MediaMuteButton = createComponent({
  tagName: "media-mute-button",
  elementClass: MuteButtonElement,
  ...options,
});
export const MediaVolumeRange = createComponent({
  tagName: "media-volume-range",
  elementClass: VolumeRangeElement,
  ...options,
});
export const MediaTimeRange = createComponent({
  tagName: "media-time-range",
  elementClass: TimeRangeElement,
  ...options,
});
export const MediaTimeDisplay = createComponent({
  tagName: "media-time-display",
  elementClass: TimeDisplayElement,
  ...options,
});
export const MediaLoadingIndicator = createComponent({
  tagName: "media-loading-indicator",
  elementClass: LoadingIndicatorElement,
  ...options,
});
export const MediaPipButton = createComponent({
  tagName: "media-pip-button",
  elementClass: PipButtonElement,
  ...options,
});
export const MediaFullscreenButton = createComponent({
  tagName: "media-fullscreen-button",
  elementClass: FullscreenButtonElement,
  ...options,
});
export const MediaRenditionMenu = createComponent({
  tagName: "media-rendition-menu",
  elementClass: RenditionMenuElement,
  ...options,
});
export const MediaRenditionMenuButton = createComponent({
  tagName: "media-rendition-menu-button",
  elementClass: RenditionMenuButtonElement,
  ...options,
});
export const MediaPlaybackRateMenu = createComponent({
  tagName: "media-playback-rate-menu",
  elementClass: RateMenuElement,
  ...options,
});
export const MediaPlaybackRateMenuButton = createComponent({
  tagName: "media-playback-rate-menu-button",
  elementClass: RateMenuButtonElement,
  ...options,
});
