import { useLocation, useNavigate } from "react-router";
import { useTranslation } from "react-i18next";
import { useLocalePath } from "@/i18n/useLocalePath";
import { notify } from "@/lib/notify";
import { useSocketEvent } from "@/realtime/socket";
import { scoresHidden } from "@/session/spoilers";
import { liveAlertToast } from "./liveAlert";

/** Stays until closed or followed: a match that starts while the viewer is away from the screen. */
const ALERT_DURATION_MS = 30_000;

/**
 * Go-live alerts (issue 31 §4): when an event of a team, league or category the signed-in viewer
 * follows goes live, every open tab shows a toast with "Watch now", on any page. The server sends
 * `followed-event-live` to the viewer's room once per event (asyncapi).
 */
export default function LiveAlerts() {
  const { t } = useTranslation("following");
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const { pathname } = useLocation();
  useSocketEvent("followed-event-live", (alert) => {
    const toast = liveAlertToast(alert, pathname, scoresHidden(alert.eventId));
    if (!toast) return;
    void notify.info(t("alerts.live", { title: toast.title }), {
      id: toast.id,
      duration: ALERT_DURATION_MS,
      action: { label: t("alerts.watch_now"), onClick: () => void navigate(localePath(toast.path)) },
    });
  });
  return null;
}
