/**
 * Errors a page throws for the route's error screen (spec §2): an unmatched route is
 * 'Page not found: {path}', a missing entity shows the not-found screen with its context
 * ("event", "league", "team", ...), whose texts are errors.{context}_not_found and
 * errors.could_not_find_{context}.
 */
export class NotFoundError extends Error {
  readonly status = 404;
  /** The requested path of an unmatched route: the not-found screen shows it, translated. */
  path?: string;
  constructor(
    readonly context = "page",
    message = "Page Not Found",
    readonly danger?: string,
  ) {
    super(message);
    this.name = "NotFoundError";
  }
}

export function pageNotFound(path: string): NotFoundError {
  return Object.assign(new NotFoundError("page", `Page not found: ${path}`), { path });
}
