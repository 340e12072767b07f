import { api, unwrap } from "@/api/client";
import { mapPlaybackPosition, type PlaybackPosition } from "./playback";

export interface PlaybackReport {
  videoId: string;
  /** Seconds into the video's stream. */
  position: number;
  /** The video's length in seconds. */
  duration: number;
}

/** Every playback-position query (the event page's resume, the home page's "Continue watching"). */
export const playbackKey = ["playback"] as const;

/**
 * Records where the viewer is in an archived event or clip. `keepalive` lets the request outlive
 * the page (a report sent as the tab is hidden or closed).
 */
export async function savePlaybackPosition(
  { videoId, position, duration }: PlaybackReport,
  { keepalive = false }: { keepalive?: boolean } = {},
): Promise<PlaybackPosition> {
  const body = { video_id: videoId, position, duration };
  const answer = await unwrap(api.POST("/user/save_playback_position", { body, keepalive }));
  return mapPlaybackPosition(answer.content);
}
