import { api, unwrap } from "@/api/client";

/**
 * Native HLS players cannot send the bearer header: POST /user/media_cookie puts the viewer's access
 * token in an HttpOnly cookie on /media/s/ (README "Stream access"). Resolves to when the cookie
 * expires (epoch ms), with the access token it holds.
 */
export async function setMediaCookie(): Promise<number> {
  const answer = await unwrap(api.POST("/user/media_cookie"));
  const expires = Date.parse(answer.content.expiresAt);
  return Number.isNaN(expires) ? Date.now() + 60_000 : expires;
}
