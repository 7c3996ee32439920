/** The event that tells the route progress bar (./route-progress.tsx) a navigation has started. */
export const navigationStartEvent = "console:navigation-start";

/**
 * Tells the progress bar a navigation has started. Link clicks are seen by the bar itself; code that calls
 * `router.push` (a row opened with Enter, a search result) calls this first. Apart from the bar, so these callers do
 * not carry the bar's code, which loads after hydration.
 */
export function startNavigationProgress(): void {
  window.dispatchEvent(new Event(navigationStartEvent));
}
