/** How a purchase or contract stands, at a glance: each tone has its colour and its own mark. */
export type StatusTone = "success" | "danger" | "pending" | "neutral";

const TONES: Record<string, StatusTone> = {
  // Purchases and payments (spec §3 "Request states").
  success: "success",
  error: "danger",
  init: "pending",
  "in progress": "pending",
  // Contracts.
  active: "success",
  failed: "danger",
  past_due: "danger",
  processing: "pending",
  expired: "neutral",
  canceled: "neutral",
};

export function statusTone(status: string): StatusTone {
  return TONES[status] ?? "neutral";
}

// A shape besides the colour, so the badges differ for everyone (WCAG 1.4.1, use of colour).
const MARKS: Record<StatusTone, string> = { success: "✓", danger: "✕", pending: "…", neutral: "•" };

/** A status badge: its mark, then its text (the text alone is read out). */
export function StatusBadge({ status, children }: { status: string; children: React.ReactNode }) {
  const tone = statusTone(status);
  return (
    <span className={`commerce-status commerce-status--${tone}`} data-tone={tone}>
      <span className="commerce-status__mark" aria-hidden="true">
        {MARKS[tone]}
      </span>
      <span className="commerce-status__text">{children}</span>
    </span>
  );
}
