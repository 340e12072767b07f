import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { DEVICES_QUERY_KEY } from "./getDevices";

/** POST /user/end_other_sessions: signs out every other session; answers how many ended. */
export async function endOtherSessions(): Promise<number> {
  const answer = await unwrap(api.POST("/user/end_other_sessions"));
  return answer.content.ended;
}

export function useEndOtherSessions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: endOtherSessions,
    onSuccess: () => client.invalidateQueries({ queryKey: DEVICES_QUERY_KEY }),
  });
}
