import { Component, forwardRef, lazy, startTransition, Suspense, useEffect, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { loadedPlayerView, loadPlayerView } from "./load";
import type { PlayerHandle, PlayerProps } from "./types";
import { afterNextPaint } from "@/lib/afterNextPaint";
import "./Player.css";

const PlayerView = lazy(loadPlayerView);

function Placeholder({ poster }: { poster?: string | null }) {
  const { t } = useTranslation("player");
  return (
    <div className="player__frame player__placeholder" role="status">
      {poster && <img className="player__poster" src={poster} alt="" decoding="async" />}
      <span className="player__spinner" aria-hidden="true" />
      <span className="visually-hidden">{t("loading")}</span>
    </div>
  );
}

interface BoundaryState {
  failed: boolean;
}

/** The player's code could not be fetched (offline, a new release): say so, with a retry. */
class LoadBoundary extends Component<
  { children: ReactNode; fallback: (retry: () => void) => ReactNode },
  BoundaryState
> {
  state: BoundaryState = { failed: false };
  static getDerivedStateFromError(): BoundaryState {
    return { failed: true };
  }
  render() {
    return this.state.failed ? this.props.fallback(() => this.setState({ failed: false })) : this.props.children;
  }
}

function LoadFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation("player");
  return (
    <div className="player__frame player__placeholder">
      <div className="player__error" role="alert">
        <p>{t("error.network")}</p>
        <button type="button" className="btn" onClick={onRetry}>
          {t("retry")}
        </button>
      </div>
    </div>
  );
}

/**
 * A video player for HLS streams, live (with rewind) or on demand: hls.js under media-chrome's
 * controls, with quality, speed, picture-in-picture, fullscreen, keyboard shortcuts (`?` lists them),
 * signed-URL renewal, a VAST pre-roll and error recovery. It knows nothing of events: the page
 * gives it a source, and the ways to renew it and to authorise requests.
 */
export const Player = forwardRef<PlayerHandle, PlayerProps & { className?: string }>(function Player(
  { className, ...props },
  ref,
) {
  // Already fetched (the router started it with the page): no suspension. A failed fetch stays
  // failed in a lazy component: a retry needs a new one.
  const [View, setView] = useState(() => loadedPlayerView()?.default ?? PlayerView);
  // The player's elements (media-chrome's and their shadow trees, the engine) mount in a render of
  // their own once the page is painted: both in one commit kept a phone busy for a third of a
  // second, and media-chrome measures itself as it connects, which forced the layout of the whole
  // page in the middle of it. The placeholder shows the same poster meanwhile.
  const [mounted, setMounted] = useState(false);
  useEffect(() => afterNextPaint(() => startTransition(() => setMounted(true))), []);
  return (
    <div className={className ? `player ${className}` : "player"}>
      <LoadBoundary
        fallback={(retry) => (
          <LoadFailed
            onRetry={() => {
              setView(() => lazy(loadPlayerView));
              retry();
            }}
          />
        )}
      >
        <Suspense fallback={<Placeholder poster={props.poster} />}>
          {mounted ? <View ref={ref} {...props} /> : <Placeholder poster={props.poster} />}
        </Suspense>
      </LoadBoundary>
    </div>
  );
});
