/*
 * Multiview's keys, pure: 1–4 give that tile the sound, Escape leaves full view. Keys typed into a
 * field, or pressed with a modifier (the browser's and the system's shortcuts), are left alone.
 */

export type KeyAction = { kind: "sound"; tile: number } | { kind: "leave-full-view" };

export interface KeyPress {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  /** The key went to a text field, a select or an editable element. */
  typing: boolean;
}

/** What `press` does with `tiles` tiles on screen, `fullView` while one of them is in full view. */
export function keyAction(press: KeyPress, tiles: number, fullView: boolean): KeyAction | null {
  if (press.typing || press.altKey || press.ctrlKey || press.metaKey) return null;
  if (press.key === "Escape") return fullView ? { kind: "leave-full-view" } : null;
  if (!/^[1-9]$/.test(press.key)) return null;
  const tile = Number(press.key) - 1;
  return tile < tiles ? { kind: "sound", tile } : null;
}

/** Whether a key pressed with `target` focused is typed into it. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (!(target instanceof HTMLInputElement)) return false;
  return !["button", "checkbox", "radio", "range", "reset", "submit", "color", "file", "image"].includes(target.type);
}
