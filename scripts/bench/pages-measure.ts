/**
 * How bench:pages (./pages.ts) measures a page in Chromium: paints by Element Timing, hydration by the providers'
 * `console:hydrated` mark, long tasks and layout shifts by observers installed before any page script, and the
 * first-load JavaScript a route's HTML makes the browser load.
 */
import { chromium, type Browser, type Page } from "@playwright/test";
import { resolveChromium } from "../lib/chromium";
import { firstLoadScripts, gzipKb } from "../lib/first-load";

/**
 * Installed before any page script: keeps the long tasks (> 50 ms of main-thread work) of each document and sums its
 * layout shifts not caused by input.
 */
const initScript = () => {
  const state = { longTasks: [] as Array<{ start: number; duration: number }>, layoutShift: 0 };
  (window as unknown as { __bench: typeof state }).__bench = state;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) state.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: "longtask", buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>)
      if (!entry.hadRecentInput) state.layoutShift += entry.value;
  }).observe({ type: "layout-shift", buffered: true });
};

interface PaintWait {
  identifier: string;
  after: number;
}

/** Resolves with the render time of the first element marked `identifier` painted after `after` (page clock). */
function waitForElementPaint(page: Page, wait: PaintWait): Promise<number> {
  return page.evaluate(
    ({ identifier, after }) =>
      new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no paint of ${identifier} after ${after}`)), 20_000);
        new PerformanceObserver((list, observer) => {
          for (const entry of list.getEntries() as Array<PerformanceEntry & { identifier: string; renderTime: number; loadTime: number }>) {
            const time = entry.renderTime || entry.loadTime;
            if (entry.identifier === identifier && time > after) {
              clearTimeout(timer);
              observer.disconnect();
              resolve(time);
              return;
            }
          }
        }).observe({ type: "element", buffered: true });
      }),
    wait,
  );
}

/** The page clock's time when the console's providers finished hydrating. */
export const hydrated = (page: Page) =>
  page
    .waitForFunction(() => performance.getEntriesByName("console:hydrated")[0]?.startTime, undefined, { timeout: 20_000 })
    .then((handle) => handle.jsonValue() as Promise<number>);

export interface Load {
  ttfb: number;
  fcp: number;
  painted: number;
  hydrated: number;
  longTasks: number;
  htmlBytes: number;
}

/** One fresh navigation to `url`, measured from its start until the page is hydrated (and its marked element painted). */
export async function load(page: Page, url: string, identifier: string): Promise<Load> {
  await page.goto(url, { waitUntil: "commit" });
  const painted = await waitForElementPaint(page, { identifier, after: 0 });
  const hydratedAt = await hydrated(page);
  // Long tasks are reported once they end: give the last one a frame to arrive.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))));
  return page.evaluate(
    ({ painted, hydratedAt }) => {
      const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN;
      const bench = (window as unknown as { __bench: { longTasks: Array<{ start: number; duration: number }> } }).__bench;
      const longTasks = bench.longTasks.filter((task) => task.start <= hydratedAt).reduce((sum, task) => sum + task.duration, 0);
      return { ttfb: navigation.responseStart, fcp, painted, hydrated: hydratedAt, longTasks, htmlBytes: navigation.decodedBodySize };
    },
    { painted, hydratedAt },
  );
}

/**
 * One load of a static page (the ceiling: no scripts, so no hydration), measured from navigation start until its marked
 * element is painted; `hydrated` and `longTasks` are NaN.
 */
export async function staticLoad(page: Page, url: string, identifier: string): Promise<Load> {
  await page.goto(url, { waitUntil: "commit" });
  const painted = await waitForElementPaint(page, { identifier, after: 0 });
  return page.evaluate((painted) => {
    const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN;
    return { ttfb: navigation.responseStart, fcp, painted, hydrated: Number.NaN, longTasks: Number.NaN, htmlBytes: navigation.decodedBodySize };
  }, painted);
}

/** A list loaded fresh and hydrated, ready for an interaction. */
export async function freshList(page: Page, url: string) {
  await page.goto(url, { waitUntil: "commit" });
  await waitForElementPaint(page, { identifier: "first-row", after: 0 });
  await hydrated(page);
}

/**
 * Installed just before an interaction: the page clock's time of the first input event the act dispatches (pointer,
 * key, change). Interactions are timed from it, as the person's input, not from the script's call: Playwright's own
 * work before the event (locating the element, checking it is visible, enabled and still, scrolling it into view)
 * took 20-60 ms of each figure and is not the console's.
 */
async function watchForInput(page: Page, fallback: number): Promise<() => Promise<number>> {
  await page.evaluate(() => {
    const state = { at: Number.NaN };
    (window as unknown as { __input: typeof state }).__input = state;
    for (const type of ["pointerdown", "mousedown", "keydown", "input", "change", "click"])
      window.addEventListener(type, (event) => (state.at = Number.isNaN(state.at) ? event.timeStamp : Math.min(state.at, event.timeStamp)), {
        capture: true,
        once: true,
      });
  });
  return async () => {
    const at = await page.evaluate(() => (window as unknown as { __input?: { at: number } }).__input?.at ?? Number.NaN);
    if (Number.isNaN(at)) throw new Error("the interaction dispatched no input event");
    return Math.max(at, fallback);
  };
}

/** Runs `act` in the page and measures from its first input event until the first paint of `identifier` after it. */
export async function interaction(page: Page, identifier: string, act: () => Promise<void>): Promise<number> {
  const started = await page.evaluate(() => performance.now());
  const inputAt = await watchForInput(page, started);
  const paint = waitForElementPaint(page, { identifier, after: started });
  await act();
  const painted = await paint;
  return painted - (await inputAt());
}

/**
 * Milliseconds from `act`'s first input event until `ready()` holds in the page and a frame has been drawn with it
 * (the next animation frame, then a task: by then the browser has painted). Used where Element Timing cannot tell:
 * rows are keyed by id, so a row already on the page that becomes the first one is moved, not painted anew, and
 * reports no entry.
 */
export async function until(page: Page, ready: { selector: string; notFirstRow?: string }, act: () => Promise<void>): Promise<number> {
  const started = await page.evaluate(() => performance.now());
  const inputAt = await watchForInput(page, started);
  // The observer is installed (awaited) before the act: a key press reaches the page on another path than an
  // evaluation, so an observer sent just before it could start after the palette had opened and wait in vain (the
  // "[cmdk-input] never shown" failures: 2 runs in 22 in a replay).
  await page.evaluate(({ selector, notFirstRow }) => {
    // No named functions in here: tsx would wrap them in a helper the page does not have.
    (window as unknown as { __shown: Promise<number> }).__shown = new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${selector} never shown`)), 20_000);
      const observer = new MutationObserver(() => {
        const element = document.querySelector<HTMLElement>(selector);
        if (!element || (notFirstRow !== undefined && element.dataset.id === notFirstRow)) return;
        observer.disconnect();
        clearTimeout(timer);
        requestAnimationFrame(() => setTimeout(() => resolve(performance.now())));
      });
      observer.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-id"] });
    });
  }, ready);
  await act();
  const shownAt = await page.evaluate(() => (window as unknown as { __shown: Promise<number> }).__shown);
  return shownAt - (await inputAt());
}

/** Milliseconds from `act` until the list's first row is another one than before, painted. */
export async function untilNewRows(page: Page, act: () => Promise<void>): Promise<number> {
  const before = (await page.locator("tr[data-row]").first().getAttribute("data-id")) ?? "";
  return until(page, { selector: "tr[data-row]", notFirstRow: before }, act);
}

/** Gzip size of the scripts a route's HTML makes a modern browser load (`noModule` ones apart), in kB (1024 bytes). */
export async function firstLoadKb(page: Page, routeUrl: string): Promise<{ kb: number; noModuleKb: number }> {
  const answer = await page.request.get(routeUrl);
  // A page the role may not open answers 403 with the forbidden page, whose scripts are not the route's.
  if (!answer.ok()) throw new Error(`first-load JS of ${routeUrl}: HTTP ${answer.status()}, not the page itself`);
  const scripts = firstLoadScripts(await answer.text());
  return { kb: gzipKb(scripts.modern), noModuleKb: gzipKb(scripts.noModule) };
}

/** The layout shift of a fresh load of `routeUrl` at `width` px, until 2 s after hydration. */
export async function layoutShift(page: Page, routeUrl: string, width: number): Promise<number> {
  await page.setViewportSize({ width, height: 900 });
  await page.goto(routeUrl, { waitUntil: "commit" });
  await hydrated(page);
  await page.waitForTimeout(2_000);
  return page.evaluate(() => (window as unknown as { __bench: { layoutShift: number } }).__bench.layoutShift);
}

/** Headless Chromium as every bench runs it: Debian's (or PLAYWRIGHT_CHROMIUM_EXECUTABLE), nothing in the background. */
export const launchBenchChromium = () =>
  chromium.launch({
    executablePath: resolveChromium() ?? undefined,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--no-first-run"],
  });

export async function signedIn(browser: Browser, consoleUrl: string, email: string, password: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript(initScript);
  const page = await context.newPage();
  await page.goto(`${consoleUrl}/sign-in`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"));
  return page;
}
