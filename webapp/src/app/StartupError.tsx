import i18n from "i18next";
import { createRoot } from "react-dom/client";
import enCommon from "@/i18n/locales/en/common.json";
import "@/ui/StatusScreen.css";

type ScreenText = keyof typeof enCommon.error_screen;

/** Translated when the translations are up; else the English that ships with the app (they may be what failed). */
function text(key: ScreenText): string {
  const english = enCommon.error_screen[key];
  return i18n.isInitialized ? i18n.t(`common:error_screen.${key}`, { defaultValue: english }) : english;
}

/**
 * What the page shows when it cannot start (no configuration, no translations): it needs none of
 * the router, the configuration or the query client, unlike the routes' ErrorScreen.
 */
export function StartupError({ onRetry }: { onRetry: () => void }) {
  return (
    <section className="status-screen" aria-labelledby="startup-error-title" role="alert">
      <div className="status-screen__box">
        <h1 id="startup-error-title" className="status-screen__title">
          {text("title")}
        </h1>
        <div className="status-screen__actions">
          <button type="button" className="btn btn--primary" onClick={onRetry}>
            {text("retry")}
          </button>
        </div>
      </div>
    </section>
  );
}

/** Replaces the loading frame with the error screen; "Try again" reloads the page. */
export function showStartupError(error: unknown): void {
  console.error("The app could not start:", error);
  const container = document.getElementById("root");
  if (container) createRoot(container).render(<StartupError onRetry={() => window.location.reload()} />);
}
