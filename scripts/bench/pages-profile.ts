/**
 * Where a page load's time between the first byte and the first paint goes, read from a Chromium trace of one load
 * (bench:pages, ./pages.ts): the renderer main thread's work in that window by kind (self time: parsing the HTML,
 * evaluating and compiling script, style, layout, paint...), the time it sat idle (waiting for bytes), when the HTML's
 * last byte came, and every resource requested before the paint with whether it blocked rendering.
 */
import type { Browser, Page } from "@playwright/test";

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: Record<string, unknown> } & Record<string, unknown>;
}

export interface LoadProfile {
  url: string;
  /** Milliseconds from navigation start. */
  firstByte: number;
  htmlDone: number;
  fcp: number;
  /** Main-thread self time between the first byte and the first paint, by trace event name, largest first (ms). */
  work: Array<[string, number]>;
  busy: number;
  resources: Array<{ url: string; start: number; end: number; renderBlocking: string }>;
}

const categories = ["-*", "devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing", "loading", "toplevel", "v8.execute"];

/** One traced load of `url` in `page` until `ready` resolves, and where its time to first paint went. */
export async function profileLoad(browser: Browser, page: Page, url: string, ready: () => Promise<unknown>): Promise<LoadProfile> {
  await browser.startTracing(page, { categories });
  await page.goto(url, { waitUntil: "commit" });
  await ready();
  // The first contentful paint is reported once its frame is presented, which can come after hydration: wait for it,
  // or the trace may stop before it.
  await page.waitForFunction(() => performance.getEntriesByName("first-contentful-paint").length > 0, undefined, { timeout: 20_000 });
  const trace = JSON.parse((await browser.stopTracing()).toString("utf8")) as { traceEvents: TraceEvent[] };
  return summarize(trace.traceEvents, url);
}

function summarize(events: TraceEvent[], url: string): LoadProfile {
  const start = events.filter((event) => event.name === "navigationStart" && event.args?.data?.documentLoaderURL === url).at(-1);
  if (!start) throw new Error(`no navigationStart for ${url} in the trace`);
  const main = events.filter((event) => event.pid === start.pid && event.tid === start.tid);
  const at = (ts: number) => (ts - start.ts) / 1000;
  const fcpEvent = main.find((event) => event.name === "firstContentfulPaint" && event.ts >= start.ts);
  if (!fcpEvent) throw new Error(`no firstContentfulPaint for ${url} in the trace`);
  const requests = new Map<string, LoadProfile["resources"][number]>();
  let documentId: string | undefined;
  let firstByte = Number.NaN;
  let htmlDone = Number.NaN;
  for (const event of events) {
    if (event.ts < start.ts) continue;
    const data = event.args?.data ?? {};
    const id = data.requestId as string | undefined;
    if (event.name === "ResourceSendRequest" && id) {
      if (data.url === url && !documentId) documentId = id;
      requests.set(id, {
        url: String(data.url),
        start: at(event.ts),
        end: Number.NaN,
        renderBlocking: String(data.renderBlocking ?? ""),
      });
    }
    const request = id ? requests.get(id) : undefined;
    if (event.name === "ResourceReceiveResponse" && request && id === documentId) firstByte = at(event.ts);
    if (event.name === "ResourceFinish" && request) {
      // The event's own time: `finishTime` is on another clock than the trace's in some Chromium builds.
      request.end = at(event.ts);
      if (id === documentId) htmlDone = request.end;
    }
  }
  const fcp = at(fcpEvent.ts);
  const windowStart = Number.isNaN(firstByte) ? 0 : firstByte;
  const { selfTimes, busy } = selfTime(main, start.ts + windowStart * 1000, fcpEvent.ts);
  return {
    url,
    firstByte,
    htmlDone,
    fcp,
    work: [...selfTimes].sort((a, b) => b[1] - a[1]),
    busy,
    resources: [...requests.values()].filter((request) => request.url !== url && request.start <= fcp),
  };
}

/** Self time (ms) of each complete event on the thread, clipped to [from, to] (µs), and the top-level tasks' total. */
function selfTime(events: TraceEvent[], from: number, to: number): { selfTimes: Map<string, number>; busy: number } {
  const spans = events
    .filter((event) => event.ph === "X" && event.dur !== undefined && event.ts < to && event.ts + event.dur > from)
    .map((event) => ({ name: event.name, begin: Math.max(event.ts, from), end: Math.min(event.ts + event.dur!, to) }))
    .sort((a, b) => a.begin - b.begin || b.end - a.end);
  const selfTimes = new Map<string, number>();
  const stack: Array<{ name: string; begin: number; end: number; children: number }> = [];
  let busy = 0;
  const close = (span: { name: string; begin: number; end: number; children: number }) =>
    selfTimes.set(span.name, (selfTimes.get(span.name) ?? 0) + (span.end - span.begin - span.children) / 1000);
  for (const span of spans) {
    while (stack.length && stack.at(-1)!.end <= span.begin) close(stack.pop()!);
    const parent = stack.at(-1);
    if (parent) parent.children += span.end - span.begin;
    else busy += (span.end - span.begin) / 1000;
    stack.push({ ...span, children: 0 });
  }
  while (stack.length) close(stack.pop()!);
  return { selfTimes, busy };
}

/** The profile as Markdown lines. */
export function profileLines(name: string, profile: LoadProfile): string[] {
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  const gap = profile.fcp - profile.firstByte;
  const lines = [
    `**${name}** (one traced load): first byte ${ms(profile.firstByte)}, HTML's last byte ${ms(profile.htmlDone)}, first paint ${ms(profile.fcp)}: ${ms(gap)} from the first byte to the first paint, the main thread busy ${ms(profile.busy)} of it, waiting ${ms(gap - profile.busy)}.`,
    "",
    "| main-thread work, first byte → first paint | self time |",
    "|---|---:|",
    ...profile.work.filter(([, time]) => time >= 1).map(([work, time]) => `| ${work} | ${ms(time)} |`),
    "",
    "| requested before the first paint | from → to | render-blocking |",
    "|---|---|---|",
    ...profile.resources.map(
      (resource) =>
        `| \`${resource.url.startsWith("data:") ? `${resource.url.slice(0, 20)}…` : new URL(resource.url).pathname}\` | ${ms(resource.start)} → ${Number.isNaN(resource.end) ? "—" : ms(resource.end)} | ${resource.renderBlocking || "—"} |`,
    ),
    "",
  ];
  return lines;
}
