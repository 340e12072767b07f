import { useTranslation } from "react-i18next";
import type { LiveFeed } from "@/entities/event";

/**
 * Why a live event's player shows no new pictures: its feed is away (issue 28 §4). Said politely
 * and at once, so the viewer is not left before a spinner; the server tells when it is back.
 */
export function LiveFeedNotice({ feed }: { feed: LiveFeed }) {
  const { t } = useTranslation("event");
  return (
    <p role="status" aria-live="polite">
      {t(`stage.live_feed.${feed}`)}
    </p>
  );
}
