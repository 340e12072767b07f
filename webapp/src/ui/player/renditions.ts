/**
 * One rendition as media-chrome's quality menu reads it (the `videoRenditions` API of the
 * media-tracks proposal): an id, the picture size and the bitrate.
 */
export interface Rendition {
  id: string;
  width: number;
  height: number;
  bitrate: number;
}

/**
 * The list of renditions a media element offers, with `selectedIndex` (-1: automatic), as
 * media-chrome expects it on `media.videoRenditions`. The engine fills it and hears selections
 * through `onSelect`; it fires `addrendition`, `removerendition` and `change` like the proposal.
 */
export class RenditionList extends EventTarget {
  [index: number]: Rendition;
  #items: Rendition[] = [];
  #selected = -1;
  onSelect: ((index: number) => void) | null = null;

  get length(): number {
    return this.#items.length;
  }

  get selectedIndex(): number {
    return this.#selected;
  }

  /** A viewer's choice (media-chrome's menu): tells the engine, which confirms with `select`. */
  set selectedIndex(index: number) {
    const next = index >= 0 && index < this.#items.length ? index : -1;
    this.onSelect?.(next);
    this.select(next);
  }

  [Symbol.iterator](): Iterator<Rendition> {
    return this.#items[Symbol.iterator]();
  }

  /** Replaces the renditions (a new stream), back to automatic selection. */
  replace(items: readonly Rendition[]): void {
    for (let index = 0; index < this.#items.length; index++) Reflect.deleteProperty(this, index);
    const removed = this.#items.length > 0;
    this.#items = [...items];
    this.#items.forEach((item, index) => (this[index] = item));
    this.#selected = -1;
    if (removed) this.dispatchEvent(new Event("removerendition"));
    if (items.length) this.dispatchEvent(new Event("addrendition"));
  }

  /** Records the selection without telling the engine (it made it). */
  select(index: number): void {
    if (index === this.#selected) return;
    this.#selected = index;
    this.dispatchEvent(new Event("change"));
  }
}
