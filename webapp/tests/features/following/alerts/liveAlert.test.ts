// @vitest-environment node
import { describe, expect, it } from "vitest";
import { liveAlertToast } from "@/features/following/alerts/liveAlert";

const ALERT = {
  eventId: "65a1f0c2e4b0a1b2c3d4e5f6",
  title: "Rematch of Rovers 3-1 United",
  wentLiveAt: "2026-11-30T19:00:02Z",
};

describe("a go-live alert's toast", () => {
  it("names the event and leads to its page, one toast per event", () => {
    expect(liveAlertToast(ALERT, "/live", false)).toEqual({
      id: `live-alert-${ALERT.eventId}`,
      title: ALERT.title,
      path: `/events/${ALERT.eventId}`,
    });
  });

  it("takes the score out of the title while the event's scores are hidden", () => {
    expect(liveAlertToast(ALERT, "/", true)?.title).toBe("Rematch of Rovers vs United");
  });

  it("is not shown on the event's own page, in any locale", () => {
    for (const page of [`/events/${ALERT.eventId}`, `/de/events/${ALERT.eventId}`, `/events/${ALERT.eventId}/`]) {
      expect(liveAlertToast(ALERT, page, false)).toBeNull();
    }
  });

  it("is shown on another event's page", () => {
    expect(liveAlertToast(ALERT, "/events/65a1f0c2e4b0a1b2c3d4e5f7", false)).not.toBeNull();
  });
});
