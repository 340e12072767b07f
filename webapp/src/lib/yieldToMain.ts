/**
 * Ends the current task and goes on in a new one, so the browser can paint and answer input in
 * between: work split this way never blocks the page for its whole length. `scheduler.yield()`
 * goes on ahead of tasks queued meanwhile, where the browser has it; elsewhere a timer.
 */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === "function") return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
