import { api, unwrap } from "@/api/client";
import { mapUserProfile } from "@/entities/user";
import { sessionStore } from "./store";

/**
 * Keeps spoiler-free mode with the signed-in viewer's account (the profile's `options`). A module
 * of its own: asked for when the viewer flips the switch, not with the first page.
 */
export async function keepWithAccount(on: boolean): Promise<void> {
  const answer = await unwrap(api.POST("/user/update_profile", { body: { data: { options: { spoilerFree: on } } } }));
  sessionStore.setState({ user: mapUserProfile(answer.content) });
}
