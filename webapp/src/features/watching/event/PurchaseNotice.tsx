import type { Dispatch } from "react";
import { useTranslation } from "react-i18next";
import type { EventPageAction, PurchaseNotice as Notice } from "./realtime";

function Body({ notice, dispatch }: { notice: Notice; dispatch: Dispatch<EventPageAction> }) {
  const { t } = useTranslation("event");
  return (
    <div className={`event-purchase__notice event-purchase__notice--${notice}`}>
      <p>{t(`purchase.${notice}`)}</p>
      <button type="button" className="btn btn--ghost" onClick={() => dispatch({ type: "purchase-notice-dismissed" })}>
        {t("purchase.dismiss")}
      </button>
    </div>
  );
}

/**
 * Where the viewer's purchase for this event stands, as the user room announces it
 * (user-purchase-status). Both live regions are always present, so a change is read out; a
 * failure interrupts, the rest waits its turn.
 */
export function PurchaseNotice({ notice, dispatch }: { notice: Notice | null; dispatch: Dispatch<EventPageAction> }) {
  return (
    <>
      <div className="event-purchase" role="status">
        {notice && notice !== "failed" && <Body notice={notice} dispatch={dispatch} />}
      </div>
      <div className="event-purchase" role="alert">
        {notice === "failed" && <Body notice={notice} dispatch={dispatch} />}
      </div>
    </>
  );
}
