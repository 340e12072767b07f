import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "@/api/apiError";

/**
 * The app's one QueryClient. Client errors (4xx) are answers, not glitches: they are not
 * retried; network failures and 5xx are retried twice.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      retry: (failures, error) =>
        !(error instanceof ApiError && error.status > 0 && error.status < 500) && failures < 2,
    },
  },
});
