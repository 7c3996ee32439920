/**
 * bench:pages' report (./pages.ts): each page beside its ceiling, the interactions judged by the rule the ceiling's
 * paint picks, first-load JavaScript and layout shift, as Markdown on stdout.
 */
import type { Load } from "./pages-measure";
import { median } from "./stats";

/** The issue's targets (docs/benchmarks.md); milliseconds unless said. */
export const targets = {
  /** First row (detail: title) painted ≤ this many times the ceiling's first row (title) painted. */
  paintedVsCeiling: 1.5,
  /** Hydrated ≤ this many times the ceiling's first contentful paint. */
  hydratedVsCeilingFcp: 2.5,
  /** Filter, next page, section and sort change, to the new rows painted, where the ceiling paints in ≤ `fastCeiling`. */
  interaction: 150,
  fastCeiling: 80,
  palette: 300,
  /** Keystroke → results (the search's server time at scale is bench:search's). */
  search: 150,
  editor: 300,
  /** kB gzip: the lists on the table engine (resource lists, events, audit, review queue, approvals), and every other page. */
  firstLoadKb: { list: 175, other: 170 },
  listHtmlKib: 150,
  layoutShift: 0.05,
};

const ms = (value: number) => (Number.isNaN(value) ? "—" : `${value.toFixed(0)} ms`);
const verdict = (value: number, limit: number) => (value <= limit ? "met" : "**missed**");
const pick = (loads: Load[], key: keyof Load) => median(loads.map((one) => one[key]));

export interface PageLoads {
  name: string;
  console: Load[];
  /** The console's HTML of the same page served static by the ceiling's server, its scripts and RSC payload in. */
  asServed: Load[];
  ceiling: Load[];
  bankMs: number;
}

/**
 * Each page's figures, the console's beside its HTML served static and its ceiling's, then the two ratio targets of each
 * page, then where each page's gap to its ceiling comes from.
 */
export function printPages(pages: PageLoads[], header: string) {
  console.log(`${header}\n`);
  console.log("| page | served by | TTFB | FCP | first row / title painted | hydrated | long tasks (sum) | HTML | bank's own answer |");
  console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|");
  for (const page of pages)
    for (const [by, loads] of [
      ["console", page.console],
      ["its HTML served static (scripts in)", page.asServed],
      ["ceiling (static, no scripts)", page.ceiling],
    ] as const)
      console.log(
        `| ${page.name} | ${by} | ${ms(pick(loads, "ttfb"))} | ${ms(pick(loads, "fcp"))} | ${ms(pick(loads, "painted"))} | ${ms(pick(loads, "hydrated"))} | ${ms(pick(loads, "longTasks"))} | ${(pick(loads, "htmlBytes") / 1024).toFixed(1)} KiB | ${by === "console" ? `${page.bankMs.toFixed(1)} ms` : "—"} |`,
      );
  console.log("\n| target | console | ceiling | ratio | limit | |\n|---|---:|---:|---:|---:|---|");
  for (const page of pages) {
    const painted = pick(page.console, "painted");
    const ceilingPainted = pick(page.ceiling, "painted");
    const hydrated = pick(page.console, "hydrated");
    const ceilingFcp = pick(page.ceiling, "fcp");
    const ratio = (value: number, of: number) => `${(value / of).toFixed(2)}x`;
    console.log(
      `| ${page.name}: painted vs the ceiling's painted | ${ms(painted)} | ${ms(ceilingPainted)} | ${ratio(painted, ceilingPainted)} | ≤ ${targets.paintedVsCeiling}x | ${verdict(painted / ceilingPainted, targets.paintedVsCeiling)} |`,
    );
    console.log(
      `| ${page.name}: hydrated vs the ceiling's FCP | ${ms(hydrated)} | ${ms(ceilingFcp)} | ${ratio(hydrated, ceilingFcp)} | ≤ ${targets.hydratedVsCeilingFcp}x | ${verdict(hydrated / ceilingFcp, targets.hydratedVsCeilingFcp)} |`,
    );
  }
  console.log(
    "\n| where the painted gap comes from | gap to the ceiling | before the first byte (server) | after it (browser) |\n|---|---:|---:|---:|",
  );
  for (const page of pages) {
    const ceilingPainted = pick(page.ceiling, "painted");
    const gap = pick(page.console, "painted") - ceilingPainted;
    const browser = pick(page.asServed, "painted") - ceilingPainted;
    console.log(
      `| ${page.name} | ${ms(gap)} | ${ms(gap - browser)} | ${ms(browser)} (its HTML served static: ${(pick(page.asServed, "painted") / ceilingPainted).toFixed(2)}x) |`,
    );
  }
}

export interface Interaction {
  name: string;
  until: string;
  values: number[];
  bankMs?: number;
  /** Judged by the ceiling rule (filter, next page, section, sort) rather than a fixed limit. */
  limit: number | "ceiling";
}

/**
 * The interactions. The ceiling rule: where the list's ceiling paints (its FCP) in ≤ 80 ms, the limit is 150 ms;
 * on a slower machine (or a busier one) it is the same ratio to the ceiling's paint, 150 / 80 = 1.875x of it.
 */
export function printInteractions(interactions: Interaction[], ceilingFcp: number) {
  const ratioLimit = targets.interaction / targets.fastCeiling;
  const fast = ceilingFcp <= targets.fastCeiling;
  const ceilingLimit = fast ? targets.interaction : ratioLimit * ceilingFcp;
  console.log(
    `\nThe list's ceiling paints (FCP) in ${ms(ceilingFcp)}: ${
      fast
        ? `≤ ${targets.fastCeiling} ms, so filter, next page, section and sort change are held to ${targets.interaction} ms.`
        : `over ${targets.fastCeiling} ms, so filter, next page, section and sort change are held to the same ratio to the ceiling's paint, ${targets.interaction} / ${targets.fastCeiling} = ${ratioLimit.toFixed(3)}x its FCP: ${ms(ceilingLimit)}.`
    }\n`,
  );
  console.log("| interaction (from a freshly loaded list) | until | console | ÷ ceiling FCP | bank's own answer | target | |");
  console.log("|---|---|---:|---:|---:|---|---|");
  for (const one of interactions) {
    const value = median(one.values);
    const limit = one.limit === "ceiling" ? ceilingLimit : one.limit;
    const shown = one.limit === "ceiling" && !fast ? `≤ ${ratioLimit.toFixed(3)}x ceiling FCP (${ms(limit)})` : `≤ ${limit} ms`;
    console.log(
      `| ${one.name} | ${one.until} | ${ms(value)} | ${(value / ceilingFcp).toFixed(2)}x | ${one.bankMs === undefined ? "—" : `${one.bankMs.toFixed(1)} ms`} | ${shown} | ${verdict(value, limit)} |`,
    );
  }
}

export function printListHtml(listName: string, loads: Load[]) {
  const kib = pick(loads, "htmlBytes") / 1024;
  console.log(`\n${listName} HTML: ${kib.toFixed(1)} KiB (target ≤ ${targets.listHtmlKib} KiB: ${verdict(kib, targets.listHtmlKib)}).`);
}

export function printFirstLoad(sizes: Array<[string, { kb: number; noModuleKb: number }]>, isList: (route: string) => boolean) {
  console.log(
    "\n| route | first-load JS (gzip, what Chromium loads) | target | | noModule polyfills (not loaded by Chromium) |\n|---|---:|---|---|---:|",
  );
  for (const [route, size] of sizes) {
    const limit = isList(route) ? targets.firstLoadKb.list : targets.firstLoadKb.other;
    console.log(`| \`${route}\` | ${size.kb.toFixed(1)} kB | ≤ ${limit} kB | ${verdict(size.kb, limit)} | ${size.noModuleKb.toFixed(1)} kB |`);
  }
}

export function printLayoutShift(shifts: Array<[string, number, number]>) {
  console.log(`\n| route | layout shift at 1440 px | at 390 px | target < ${targets.layoutShift} | |\n|---|---:|---:|---|---|`);
  for (const [route, wide, narrow] of shifts)
    console.log(`| \`${route}\` | ${wide.toFixed(3)} | ${narrow.toFixed(3)} | both | ${verdict(Math.max(wide, narrow), targets.layoutShift)} |`);
}
