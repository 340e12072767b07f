import { useEffect, type RefObject } from "react";

/**
 * Closes an open popup (menu, mobile navigation) on Escape, on a pointer press outside
 * `container`, or when keyboard focus moves to something outside both the popup and `trigger`
 * (an open panel nobody is in would cover the page). Escape also hands focus back to the
 * control that opened it.
 */
export function useDismiss(
  open: boolean,
  close: () => void,
  container: RefObject<HTMLElement | null>,
  trigger: RefObject<HTMLElement | null>,
): void {
  useEffect(() => {
    if (!open) return;
    const isOutside = (target: Node) => !container.current?.contains(target) && !trigger.current?.contains(target);
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      close();
      trigger.current?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      if (isOutside(event.target as Node)) close();
    };
    // Focus leaving to nowhere (another window, the browser's own UI) keeps the popup open.
    const onFocusOut = (event: FocusEvent) => {
      const next = event.relatedTarget as Node | null;
      if (next && isOutside(next)) close();
    };
    const containerElement = container.current;
    const triggerElement = trigger.current;
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onPointerDown);
    containerElement?.addEventListener("focusout", onFocusOut);
    triggerElement?.addEventListener("focusout", onFocusOut);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onPointerDown);
      containerElement?.removeEventListener("focusout", onFocusOut);
      triggerElement?.removeEventListener("focusout", onFocusOut);
    };
  }, [open, close, container, trigger]);
}
