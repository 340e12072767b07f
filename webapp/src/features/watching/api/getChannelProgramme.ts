import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

export interface ProgrammeSlot {
  id: string;
  title: string;
  description: string | null;
  start: Date;
  end: Date;
  /** The `_id` of the event the slot shows, if any. */
  eventId: string | null;
}

export interface ChannelProgramme {
  channelTitle: string;
  slots: ProgrammeSlot[];
}

const EPG_PATH = /\/api\/event\/epg\/([^/?#]+)/;

/** The channel id in a channel's content.EPG address ("/api/event/epg/{id}"), or null for another source. */
export function epgChannelId(epgUrl: string | null | undefined): string | null {
  const match = epgUrl ? EPG_PATH.exec(epgUrl) : null;
  return match ? decodeURIComponent(match[1]) : null;
}

export async function fetchChannelProgramme(channelId: string, signal?: AbortSignal): Promise<ChannelProgramme> {
  const answer = await unwrap(api.GET("/event/epg/{id}", { params: { path: { id: channelId } }, signal }));
  const { channel, entries } = answer.content;
  return {
    channelTitle: channel.title,
    slots: entries.map((slot) => ({
      id: slot._id,
      title: slot.title,
      description: slot.description ?? null,
      start: new Date(slot.startTime),
      end: new Date(slot.endTime),
      eventId: slot.event_id ?? null,
    })),
  };
}

export function channelProgrammeQueryOptions(channelId: string) {
  return queryOptions({
    queryKey: ["catalog", "channel-programme", channelId],
    queryFn: ({ signal }) => fetchChannelProgramme(channelId, signal),
    // Slots move from "next" to "now" as time passes.
    refetchInterval: 5 * 60_000,
  });
}

/** The programme guide (EPG) of a channel, read from the channel's own EPG address. */
export function useChannelProgramme(epgUrl: string | null | undefined) {
  const channelId = epgChannelId(epgUrl);
  return useQuery({ ...channelProgrammeQueryOptions(channelId ?? ""), enabled: channelId !== null });
}
