import type { ExternalToast } from "sonner";

/**
 * Toasts of spec §3: a message of type success or danger, shown for 4000 ms unless the
 * duration is "none" (stays until dismissed). Every toast can be dismissed by default.
 */
export const TOAST_DURATION_MS = 4000;

export type ToastPosition = "top" | "top-left" | "top-right" | "bottom" | "bottom-left" | "bottom-right";

export interface NotifyOptions {
  /** Milliseconds, or "none" for a toast that stays until closed. */
  duration?: number | "none";
  position?: ToastPosition;
  dismissible?: boolean;
  /** Reusing an id replaces the toast instead of stacking a second one. */
  id?: string | number;
  description?: string;
  /** A button in the toast ("Watch now"); the toast closes when it is pressed. */
  action?: { label: string; onClick: () => void };
}

const POSITIONS: Record<ToastPosition, NonNullable<ExternalToast["position"]>> = {
  top: "top-center",
  "top-left": "top-left",
  "top-right": "top-right",
  bottom: "bottom-center",
  "bottom-left": "bottom-left",
  "bottom-right": "bottom-right",
};

export function toToastOptions(options: NotifyOptions = {}): ExternalToast {
  const { duration = TOAST_DURATION_MS, position, dismissible = true, id, description, action } = options;
  return {
    duration: duration === "none" ? Infinity : duration,
    dismissible,
    closeButton: dismissible,
    ...(position && { position: POSITIONS[position] }),
    ...(id !== undefined && { id }),
    ...(description && { description }),
    ...(action && { action }),
  };
}

// The toast library loads after the first paint (see AppToaster); no page needs it sooner.
const sonner = () => import("sonner");

/** Resolves once the toast is queued; callers need not wait for it. */
export const notify = {
  success: (message: string, options?: NotifyOptions) =>
    sonner().then(({ toast }) => void toast.success(message, toToastOptions(options))),
  danger: (message: string, options?: NotifyOptions) =>
    sonner().then(({ toast }) => void toast.error(message, toToastOptions(options))),
  info: (message: string, options?: NotifyOptions) =>
    sonner().then(({ toast }) => void toast.info(message, toToastOptions(options))),
};
