import { api, unwrap } from "@/api/client";
import type { AnalyticsSink } from "./types";

/** The default sink: POST /api/analytics/events (as the signed-in viewer when there is one). */
export const apiSink: AnalyticsSink = {
  async send(events) {
    await unwrap(api.POST("/analytics/events", { body: { events } }));
  },
};
