import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { mapEventStats } from "@/entities/stats";

/** A live game's score moves: asked again this often while it is shown. */
const SCORE_REFRESH_MS = 30_000;

export interface Score {
  home: number;
  away: number;
}

/** The stats partner's score of a game (GET /event/stats, score only); null when it has none. */
export async function fetchScore(eventId: string, signal?: AbortSignal): Promise<Score | null> {
  const answer = await unwrap(
    api.GET("/event/stats", { params: { query: { id: eventId, score: true, overview: false } }, signal }),
  );
  const scores = mapEventStats(answer.content).scores;
  return scores ? { home: scores.home.score, away: scores.away.score } : null;
}

/** The score of `eventId` while `enabled` (never asked for while the viewer hides scores). */
export function useScore(eventId: string, enabled: boolean) {
  return useQuery({
    queryKey: ["watching", "score", eventId],
    queryFn: ({ signal }) => fetchScore(eventId, signal),
    enabled,
    refetchInterval: SCORE_REFRESH_MS,
  });
}
