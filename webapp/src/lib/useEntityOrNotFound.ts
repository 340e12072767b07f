import type { UseQueryResult } from "@tanstack/react-query";
import { ApiError } from "@/api/client";
import { NotFoundError } from "./errors";

/**
 * Turns "the server has no such thing" (404, or an entity of another kind) into the route's
 * not-found screen with its context; other failures stay on the query for an error state.
 */
export function useEntityOrNotFound<T, U extends T = T>(
  query: UseQueryResult<T>,
  context: string,
  accepts?: (entity: T) => entity is U,
): UseQueryResult<U> {
  if (query.error instanceof ApiError && query.error.status === 404) throw new NotFoundError(context);
  if (query.data !== undefined && accepts && !accepts(query.data)) throw new NotFoundError(context);
  return query as UseQueryResult<U>;
}
