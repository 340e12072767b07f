import { useCallback, useState } from "react";

export interface Announcement {
  text: string;
  /** status: said when the reader is idle; alert: said at once (failures). */
  tone: "status" | "alert";
}

/** A message for a group of controls, said by screen readers and shown next to them. */
/** Says a text in the live region, politely or as an alert. */
export type Announce = (text: string, tone?: Announcement["tone"]) => void;

export function useAnnouncer(): [Announcement | null, Announce, () => void] {
  const [message, setMessage] = useState<Announcement | null>(null);
  const announce = useCallback((text: string, tone: Announcement["tone"] = "status") => setMessage({ text, tone }), []);
  const clear = useCallback(() => setMessage(null), []);
  return [message, announce, clear];
}

/**
 * The two live regions, always in the document (a region that appears together with its text is
 * often not read out); only one holds the message.
 */
export function Announcer({ message, className = "" }: { message: Announcement | null; className?: string }) {
  return (
    <>
      <p className={`event-announcer ${className}`} role="status">
        {message?.tone === "status" ? message.text : null}
      </p>
      <p className={`event-announcer event-announcer--alert ${className}`} role="alert">
        {message?.tone === "alert" ? message.text : null}
      </p>
    </>
  );
}
