/**
 * Runs `callback` once the browser has painted what is on screen now (in a task after the next
 * frame), so work started then neither delays that paint nor forces the layout of everything
 * rendered just before. A hidden tab paints no frames: after `fallbackMs` it runs all the same.
 * Returns a function that cancels it.
 */
export function afterNextPaint(callback: () => void, fallbackMs = 100): () => void {
  let frame = 0;
  let timer = 0;
  const cancel = () => {
    window.cancelAnimationFrame(frame);
    window.clearTimeout(timer);
    window.clearTimeout(fallback);
  };
  const run = () => {
    cancel();
    callback();
  };
  const fallback = window.setTimeout(run, fallbackMs);
  frame = window.requestAnimationFrame(() => {
    timer = window.setTimeout(run);
  });
  return cancel;
}
