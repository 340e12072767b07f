import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

/**
 * The viewer's personal calendar feed (issue 31 §4): an iCalendar address holding a secret, which
 * calendar apps read for the upcoming events of what the viewer follows. The server keeps only a
 * hash of the secret: the address is shown once, when it is made; making a new one ends the old.
 */
export interface CalendarFeedState {
  active: boolean;
  created: Date | null;
}

const calendarFeedQuery = queryOptions({
  queryKey: ["account", "calendar-feed"],
  queryFn: async ({ signal }): Promise<CalendarFeedState> => {
    const { content } = await unwrap(api.GET("/user/calendar_feed", { signal }));
    return { active: content.active, created: content.created ? new Date(content.created) : null };
  },
});

export function useCalendarFeed() {
  return useQuery(calendarFeedQuery);
}

/** Makes a new feed address (the previous one stops working); answers it. */
export function useCreateCalendarFeed() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => (await unwrap(api.POST("/user/calendar_feed"))).content,
    onSuccess: (feed) =>
      client.setQueryData(calendarFeedQuery.queryKey, { active: true, created: new Date(feed.created) }),
  });
}

export function useRevokeCalendarFeed() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await unwrap(api.POST("/user/calendar_feed/revoke"));
    },
    onSuccess: () => client.setQueryData(calendarFeedQuery.queryKey, { active: false, created: null }),
  });
}

/** The feed's address for calendar apps that subscribe by the webcal scheme (Apple Calendar). */
export function webcalUrl(url: string): string {
  return url.replace(/^https?:/, "webcal:");
}

/** Google Calendar's page that subscribes to a feed by its address. */
export function googleCalendarUrl(url: string): string {
  return `https://calendar.google.com/calendar/r?cid=${encodeURIComponent(webcalUrl(url))}`;
}
