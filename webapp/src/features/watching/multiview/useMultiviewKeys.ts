import { useEffect, useRef } from "react";
import { isTyping, keyAction, type KeyAction } from "./keys";

/**
 * Listens for multiview's keys anywhere on the page (./keys): 1–4 and Escape, while `tiles` tiles
 * are on screen. `onAction` may change with every render; the listener stays the same.
 */
export function useMultiviewKeys(tiles: number, fullView: boolean, onAction: (action: KeyAction) => void): void {
  const latest = useRef({ tiles, fullView, onAction });
  useEffect(() => {
    latest.current = { tiles, fullView, onAction };
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      const { tiles: count, fullView: promoted, onAction: act } = latest.current;
      const action = keyAction(
        {
          key: event.key,
          altKey: event.altKey,
          ctrlKey: event.ctrlKey,
          metaKey: event.metaKey,
          typing: isTyping(event.target),
        },
        count,
        promoted,
      );
      if (!action) return;
      event.preventDefault();
      act(action);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
