import { api, unwrap } from "@/api/client";
import type { SurveyRecord } from "@/entities/user";
import { storeProfile } from "@/session/auth";

/** Saves one survey record under the profile's options (update_profile; spec §3) and keeps the answer. */
export async function saveSurveyRecord(name: string, record: SurveyRecord): Promise<void> {
  const answer = await unwrap(api.POST("/user/update_profile", { body: { data: { options: { [name]: record } } } }));
  storeProfile(answer.content);
}
