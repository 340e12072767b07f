import type { CatalogEvent } from "./event";

/**
 * What spoiler-free mode takes out of the app's data (issue 31 §1), by the server's own rule
 * (server/services/spoilers.py): answers asked with `spoilers=hide` come without scores already;
 * this filter is for what arrives otherwise (a socket message, an answer from before the mode was
 * turned on) and for text the app builds itself (the page title, the share text).
 */

/**
 * A score between two names: 1–3 digits, a hyphen or dash, 1–3 digits, with whitespace, an
 * opening bracket or the text's start before it and whitespace, punctuation or the end after it.
 */
const SCORE = /(^|[\s([])\d{1,3}\s?[-–—]\s?\d{1,3}(?=[\s,.;:!?)\]]|$)/gu;

/** `text` with every score in it replaced by "vs" ("Highlights: A 3-1 B" → "Highlights: A vs B"). */
export function withoutScore(text: string): string {
  return text.replace(SCORE, "$1vs");
}

/**
 * The event as a viewer in spoiler-free mode sees it: no score in its title, description or
 * league line, and no length for a match (its length gives overtime away); a highlight's or
 * clip's length is its own.
 */
export function spoilerFreeEvent(event: CatalogEvent): CatalogEvent {
  return {
    ...event,
    title: withoutScore(event.title),
    description: event.description === null ? null : withoutScore(event.description),
    metaTitle: event.metaTitle === null ? null : withoutScore(event.metaTitle),
    durationSeconds: event.isClip ? event.durationSeconds : null,
  };
}
