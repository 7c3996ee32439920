"use client";

import {
  createElement,
  lazy,
  Suspense,
  useDeferredValue,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
  type ComponentType,
  type ReactNode,
} from "react";

const noSubscription = () => () => {};

/** True in the browser once hydrated; false on the server and while hydrating, so both render the same. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

export type LazyComponent<Props> = ComponentType<Props> & {
  /** Starts loading the code ahead (from a hover or focus), so the first render finds it here. */
  preload(): void;
};

/**
 * A component whose code is a chunk of its own, loaded when it is first needed: what next/dynamic does, without the
 * ~2 kB gzip its runtime added to the first load of every page that used it (docs/benchmarks.md, pages).
 *
 * Rendered on the server (and so while hydrating), it goes through React's `lazy` in a Suspense boundary: the server
 * HTML stays in place until the chunk is here. Mounted later in the browser (a click, a client navigation), it shows
 * `fallback` and renders the component once loaded, without suspending: React holds a Suspense boundary's content
 * back for up to 300 ms after its fallback showed, which made an editor opened by a click wait that long. `ssr: false`
 * renders the fallback on the server and while hydrating. A chunk that fails to load says so in place of the fallback.
 */
export function lazyComponent<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
  { fallback = null, ssr = true }: { fallback?: ReactNode; ssr?: boolean } = {},
): LazyComponent<Props> {
  let loaded: ComponentType<Props> | undefined;
  let loading: Promise<ComponentType<Props>> | undefined;
  const loadOnce = () => {
    loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        // A failed load (a deploy replaced the chunk, the network dropped) is tried again by the next mount.
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(async () => ({ default: await loadOnce() }));

  function Loaded(props: Props) {
    const hydrated = useHydrated();
    // Decided once per mount, so the tree's shape never changes under the component's own state.
    const [throughSuspense] = useState(() => ssr && !hydrated);
    // Until the chunk is here, new props reach the server HTML's boundary as a deferred render, which React holds back
    // while the boundary waits: an urgent one (a query's new data) made React drop the server HTML and show the
    // fallback until the chunk came, then bring it back: two layout shifts (a webhook's page while the webhook changes).
    const deferredProps = useDeferredValue(props);
    const shownProps = loaded ? props : deferredProps;
    const boundary = useMemo(
      () => (throughSuspense ? <Suspense fallback={fallback}>{createElement(Lazy as ComponentType<Props>, shownProps)}</Suspense> : null),
      [throughSuspense, shownProps],
    );
    const [component, setComponent] = useState(() => loaded);
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (throughSuspense || component) return;
      let mounted = true;
      loadOnce().then(
        (next) => mounted && setComponent(() => next),
        () => mounted && setFailed(true),
      );
      return () => {
        mounted = false;
      };
    }, [throughSuspense, component]);
    if (throughSuspense) return boundary;
    if (failed) {
      return (
        <p role="alert" className="text-xs text-red-700 dark:text-red-300">
          This part of the page did not load (the connection dropped, or the console was updated): reload the page.
        </p>
      );
    }
    if (!hydrated || !component) return fallback;
    return createElement(component, props);
  }
  return Object.assign(Loaded, { preload: () => void loadOnce().catch(() => {}) });
}
