import { useEffect } from "react";

/**
 * Spec §8: secondary data (commerce options, related videos, channel programme) that fails to
 * load is logged and the page goes on as if it were empty.
 */
export function useLogFailure(error: unknown, what: string): void {
  useEffect(() => {
    if (error) console.warn(`${what} failed to load`, error);
  }, [error, what]);
}
