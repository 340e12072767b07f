import { useEffect, useState } from "react";
import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import type { CatalogEvent } from "@/entities/event";
import { useLocalePath } from "@/i18n/useLocalePath";
import { useChannelProgramme, type ProgrammeSlot } from "../api/getChannelProgramme";
import { calendarDayOffset, formatDay, formatTime } from "@/lib/kickoff";
import { useLogFailure } from "@/lib/useLogFailure";
import { EmptyState, LoadingNote } from "@/ui/catalog/States";
import "./ChannelProgramme.css";

/** Slots grouped by the viewer's calendar day, in order. */
export function groupByDay(slots: readonly ProgrammeSlot[], now: Date): { offset: number; slots: ProgrammeSlot[] }[] {
  const days = new Map<number, ProgrammeSlot[]>();
  for (const slot of slots) {
    const offset = calendarDayOffset(slot.start, now);
    days.set(offset, [...(days.get(offset) ?? []), slot]);
  }
  return [...days.entries()].sort(([a], [b]) => a - b).map(([offset, daySlots]) => ({ offset, slots: daySlots }));
}

/** How often the guide looks at the clock again, so "on now" moves on while the viewer watches. */
export const NOW_TICK_MS = 30_000;

function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), NOW_TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function Slot({ slot, now }: { slot: ProgrammeSlot; now: Date }) {
  const { t, i18n } = useTranslation("catalog");
  const localePath = useLocalePath();
  const onNow = slot.start <= now && now < slot.end;
  const times = `${formatTime(slot.start, i18n.language)} – ${formatTime(slot.end, i18n.language)}`;
  return (
    <li className={`programme__slot${onNow ? " programme__slot--now" : ""}`} aria-current={onNow ? "time" : undefined}>
      <span className="programme__time">
        <time dateTime={slot.start.toISOString()}>{times}</time>
        {onNow && <span className="programme__now">{t("channel.on_now")}</span>}
      </span>
      <span className="programme__details">
        {slot.eventId ? (
          <Link className="programme__title" to={localePath(`/events/${encodeURIComponent(slot.eventId)}`)} dir="auto">
            {slot.title}
          </Link>
        ) : (
          <span className="programme__title" dir="auto">
            {slot.title}
          </span>
        )}
        {slot.description && (
          <span className="programme__description" dir="auto">
            {slot.description}
          </span>
        )}
      </span>
    </li>
  );
}

/**
 * A channel's programme guide by day, the slot on air now marked (aria-current="time") and
 * highlighted; a guide that fails to load reads as empty (spec §8).
 */
export function ChannelProgramme({ channel }: { channel: CatalogEvent }) {
  const { t, i18n } = useTranslation("catalog");
  const programme = useChannelProgramme(channel.epgUrl);
  const now = useNow();

  useLogFailure(programme.error, "Channel programme");

  if (programme.isLoading) return <LoadingNote />;
  const slots = programme.data?.slots ?? [];
  if (slots.length === 0) return <EmptyState>{t("channel.no_programme")}</EmptyState>;

  return (
    <div className="programme">
      {groupByDay(slots, now).map((day) => (
        <section key={day.offset} className="programme__day" aria-labelledby={`programme-day-${day.offset}`}>
          <h3 id={`programme-day-${day.offset}`} className="programme__day-title">
            {formatDay(day.slots[0].start, i18n.language, now)}
          </h3>
          <ol className="programme__slots">
            {day.slots.map((slot) => (
              <Slot key={slot.id} slot={slot} now={now} />
            ))}
          </ol>
        </section>
      ))}
    </div>
  );
}
