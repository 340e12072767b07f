import { lazy, type ComponentType } from "react";

export interface Preloadable<P extends object> {
  /** Fetches the code now (start-up does, beside the first page); never rejects. */
  preload(): Promise<void>;
  /**
   * The component to render: once its code is here the component itself, so the render that
   * shows it does not suspend; before that a lazy one that loads it. Keep what it returns for
   * the life of the component rendering it (in state), as React needs a stable type.
   */
  current(): ComponentType<P>;
}

/**
 * A component whose code is a chunk of its own, left out of the first load, that start-up may
 * fetch beside the first page where the page will show it, so it is part of the first render
 * instead of appearing a moment later and pushing the page about.
 */
export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>): Preloadable<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const fetchCode = () =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        loading = null; // a later render tries again
        throw error;
      },
    ));
  const Lazy = lazy(() => fetchCode().then((component) => ({ default: component })));
  return {
    preload: () =>
      fetchCode().then(
        () => undefined,
        () => undefined,
      ),
    current: () => loaded ?? Lazy,
  };
}
