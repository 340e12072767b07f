// @vitest-environment node
import { describe, expect, it } from "vitest";
import { calendarDayOffset, formatDay, formatDuration, formatTime } from "@/lib/kickoff";

const NOW = new Date("2026-11-23T12:00:00Z");

describe("kick-off dates", () => {
  it("counts calendar days in the given time zone, not 24-hour steps", () => {
    // 23:30 in New York on the 23rd is already the 24th in UTC.
    expect(calendarDayOffset(new Date("2026-11-24T04:30:00Z"), NOW, "America/New_York")).toBe(0);
    expect(calendarDayOffset(new Date("2026-11-24T04:30:00Z"), NOW, "UTC")).toBe(1);
    expect(calendarDayOffset(new Date("2026-11-22T23:59:00Z"), NOW, "UTC")).toBe(-1);
  });

  it("says today, tomorrow and yesterday in the viewer's language", () => {
    expect(formatDay(new Date("2026-11-23T19:00:00Z"), "en", NOW, "UTC")).toBe("Today");
    expect(formatDay(new Date("2026-11-24T19:00:00Z"), "en", NOW, "UTC")).toBe("Tomorrow");
    expect(formatDay(new Date("2026-11-22T19:00:00Z"), "de", NOW, "UTC")).toBe("Gestern");
  });

  it("gives other days as weekday and date, with the year only when it differs", () => {
    expect(formatDay(new Date("2026-11-28T19:00:00Z"), "en", NOW, "UTC")).toBe("Sat, Nov 28");
    expect(formatDay(new Date("2027-01-02T19:00:00Z"), "en", NOW, "UTC")).toBe("Sat, Jan 2, 2027");
  });

  it("formats the time in the time zone", () => {
    expect(formatTime(new Date("2026-11-23T19:30:00Z"), "en-GB", "Europe/Berlin")).toBe("20:30");
  });

  it("writes clip lengths as m:ss or h:mm:ss", () => {
    expect(formatDuration(62)).toBe("1:02");
    expect(formatDuration(3725)).toBe("1:02:05");
  });
});
