/*
 * The player's arrow keys, one meaning wherever the focus is inside it: ← and → move playback by
 * the seek step (the shortcut help's 10 s), ↑ and ↓ change the volume. media-chrome's controller
 * does this for its buttons and for itself, but leaves the arrows to a focused seek bar, whose
 * native range steps by 1 % of its span (72 s of a 2-hour replay, a different amount for every
 * length of video). The seek bar hands them to the controller instead.
 */

export const ARROW_KEYS: readonly string[] = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"];

/**
 * The controller's own keyboard seek steps: `seconds` back and forward (media-chrome's default
 * is the same 10 s today, but the help states it as a number: say it here too).
 */
export function setKeyboardSeekStep(controller: HTMLElement, seconds: number): void {
  controller.setAttribute("keyboardbackwardseekoffset", String(seconds));
  controller.setAttribute("keyboardforwardseekoffset", String(seconds));
}

/**
 * Makes the seek bar `range` (a media-time-range) leave the arrow keys to the controller: it no
 * longer claims them (`keysused`, which the controller reads from the focused element) and its
 * inner slider does not step itself (the key's default is prevented on the way down, before the
 * slider sees it). Returns the function that undoes this.
 */
export function leaveArrowsToController(range: HTMLElement): () => void {
  const previous = range.getAttribute("keysused");
  range.setAttribute("keysused", "");
  const onKeyDown = (event: KeyboardEvent) => {
    if (ARROW_KEYS.includes(event.key) && !event.altKey && !event.metaKey && !event.ctrlKey) event.preventDefault();
  };
  range.addEventListener("keydown", onKeyDown, { capture: true });
  return () => {
    range.removeEventListener("keydown", onKeyDown, { capture: true });
    if (previous === null) range.removeAttribute("keysused");
    else range.setAttribute("keysused", previous);
  };
}
