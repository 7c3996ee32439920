/**
 * `npm run bench:pages`: where the console's bank pages spend their time in a real browser, beside their **ceiling**
 * measured in the same run and the same browser. Starts what `npm start` starts (production build, in-memory sandbox
 * data; `DATABASE_URL` set puts the console's store on that PostgreSQL) on its own ports, signs in in headless
 * Chromium, then measures, as the median of N runs (`BENCH_PAGES_RUNS` or `--runs N`, default 20, after 2 warm-ups):
 *
 * - per page (the ACH list at the default page size, 50 rows; an ACH detail page), each a fresh navigation: time to first
 *   byte, first contentful paint, first row / detail title painted (Element Timing API: the `elementtiming` marks the
 *   data table and the detail layout carry), hydration finished (the `console:hydrated` mark ConsoleProviders sets),
 *   total long-task time until then, and the HTML's bytes (the list's: target ≤ 150 KiB at the default 50 rows);
 * - the ceiling of each page, loaded in turn with it: the page's own HTML as the console served it in this run, its
 *   scripts and RSC payload taken out, served static with the build's CSS by a bare node:http server
 *   (./pages-ceiling.ts). Targets: painted ≤ 1.5x the ceiling's painted; hydrated ≤ 2.5x the ceiling's FCP;
 * - between the two, the page's own HTML served static by the same server with its scripts and RSC payload in
 *   (fetched from the console again for each run): the part of the page's gap to its ceiling that comes after the
 *   first byte, the browser's; the rest comes before it, the server's;
 * - interactions in the same browser, each from a freshly loaded and hydrated list (so nothing is cached yet), timed
 *   from the act's first input event (pointer, key, change: the person's input, not Playwright's checks before it):
 *   filter change → new rows painted, next page → rows painted, a sidebar click to another list → its rows painted,
 *   sort change (the amount header's menu: highest first) → the index's rows painted, Ctrl/Cmd-K → id typed → Enter
 *   → the detail's title painted, `/` then a counterparty's name typed in the header search → its first hit shown,
 *   and "Edit userdata" → the editor shown (as the operations role, on a network transfer). Filter, next page,
 *   section and sort change: ≤ 150 ms where the list's ceiling paints in ≤ 80 ms, else ≤ 1.875x (150/80) its paint;
 * - one traced load of each page and its ceiling (./pages-profile.ts): where the time from the first byte to the
 *   first paint goes;
 * - first-load JavaScript of every route: the gzip size of every script the route's HTML makes a modern browser load
 *   (`noModule` polyfills are left out: Chromium never downloads them; their size is printed apart), against 175 kB on
 *   the lists on the table engine and 170 kB on every other page;
 * - layout shift of every route at 1440 and 390 px: the sum of every shift not caused by input, from navigation until
 *   2 s after hydration (what arrives late, such as counts, names beside ids and a webhook's delivery attempts, has
 *   come by then). The sum is at least the Core Web Vitals CLS (its largest window), so a sum under the target is a CLS
 *   under it. The routes include a webhook whose deliveries fail (its attempts and their chart load after the page).
 *
 * Each figure is printed beside its target, met or missed. Prints a Markdown report (stdout); progress goes to stderr.
 */
import { loadavg } from "node:os";
import type { Page } from "@playwright/test";
import { resourceList } from "@/lib/resources";
import { defaultPageSize } from "@/lib/resources/list-state";
import { startCeiling, withoutScripts } from "./pages-ceiling";
import {
  firstLoadKb,
  freshList,
  hydrated,
  interaction,
  launchBenchChromium,
  layoutShift,
  load,
  signedIn,
  staticLoad,
  until,
  untilNewRows,
} from "./pages-measure";
import { profileLines, profileLoad } from "./pages-profile";
import { printFirstLoad, printInteractions, printLayoutShift, printListHtml, printPages, targets } from "./pages-report";
import {
  bankJson,
  bankTimes,
  consoleOrigin as console_,
  port,
  repeat,
  runs,
  sandboxPort,
  waitForSearchHit,
  warmUps,
  webhookWithFailedDeliveries,
} from "./pages-setup";
import { benchLog, startChild, stopChild, waitForHealth, waitUntilQuiet } from "./run";
import { median } from "./stats";

/** The page's HTML as the console serves it to this session. */
async function servedHtml(page: Page, path: string): Promise<string> {
  const answer = await page.request.get(`${console_}${path}`);
  if (!answer.ok()) throw new Error(`${path}: HTTP ${answer.status()}`);
  return answer.text();
}

/** The page's HTML as the console serves it to this session, ready to be its ceiling; fails if its paint mark is gone. */
async function ceilingOf(page: Page, path: string, identifier: string): Promise<string> {
  const html = withoutScripts(await servedHtml(page, path));
  if (!html.includes(`elementtiming="${identifier}"`)) throw new Error(`${path}'s ceiling has no elementtiming="${identifier}"`);
  return html;
}

/** The amount column's header menu opened on a freshly loaded list, its choices shown (their chunk loaded). */
async function amountMenuOpen(page: Page) {
  const amount = page.getByRole("columnheader", { name: "Amount" });
  await amount.getByText("Amount", { exact: true }).click();
  const choice = amount.getByRole("button", { name: "Sort by amount: highest first" });
  await choice.waitFor();
  return choice;
}

async function main() {
  // start.ts in this node process's child directly (not through the tsx CLI), so the SIGTERM at the end reaches its
  // handler, which stops the sandbox and the console it started (through the CLI they outlived the bench).
  const child = startChild(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    PORT: String(port),
    SANDBOX_PORT: String(sandboxPort),
    SANDBOX_DATA: "memory",
    // The bench's own changes are the only ones: no lifecycle moving rows between the runs.
    SANDBOX_LIFECYCLE: "off",
    // The failing webhook's target (nothing listening on 127.0.0.1:9): a loopback address, refused unless allowed.
    SANDBOX_WEBHOOK_ALLOWED_NETWORKS: "127.0.0.0/8",
    LOG_LEVEL: "warn",
  });
  child.stdout?.on("data", (chunk: Buffer) => process.stderr.write(chunk));
  const load1 = loadavg()[0]!;
  try {
    await waitForHealth(`${console_}/api/health`, child, 300_000);
    await waitUntilQuiet(child.pid);
    const browser = await launchBenchChromium();
    const page = await signedIn(browser, console_, "viewer@demo.bank", "demo-viewer-pass");

    const list = "/ach";
    const firstPage = await bankJson<{ data: Array<{ id: string }> }>(`${list}?page_size=${defaultPageSize}`);
    const detailId = firstPage.data[0]!.id;
    const detail = `/ach/${detailId}`;
    const lastId = firstPage.data.at(-1)!.id;
    const transfer = (await bankJson<{ data: Array<{ id: string }> }>("/network_transfer?page_size=1")).data[0]!.id;
    benchLog(`measuring ${list} (${defaultPageSize} rows) and ${detail}, ${runs} runs each after ${warmUps} warm-ups`);

    const ceilingPages = new Map([
      [list, await ceilingOf(page, list, "first-row")],
      [detail, await ceilingOf(page, detail, "detail-title")],
    ]);
    const ceiling = await startCeiling(ceilingPages, ".next/static");
    // Each run loads the page, its own HTML served static with its scripts, then its ceiling: all three see the machine
    // as it is at that moment. The HTML served static splits the page's gap to its ceiling in two: what comes before
    // the first byte (the server) and the browser's work on what the ceiling lacks (scripts, RSC payload). It is
    // fetched again for each run, so its data is as fresh as the page's and hydrating it refetches nothing (the
    // static server answers no API).
    const pageAndCeiling = async (path: string, identifier: string) => {
      const asServed = `/as-served${path}`;
      const runsOfThree = await repeat(`${path}, its HTML served static and its ceiling`, async () => {
        const consoleLoad = await load(page, `${console_}${path}`, identifier);
        ceilingPages.set(asServed, await servedHtml(page, path));
        return {
          console: consoleLoad,
          asServed: await staticLoad(page, `${ceiling.origin}${asServed}`, identifier),
          ceiling: await staticLoad(page, `${ceiling.origin}${path}`, identifier),
        };
      });
      return {
        console: runsOfThree.map((run) => run.console),
        asServed: runsOfThree.map((run) => run.asServed),
        ceiling: runsOfThree.map((run) => run.ceiling),
      };
    };
    const listLoads = await pageAndCeiling(list, "first-row");
    const detailLoads = await pageAndCeiling(detail, "detail-title");

    // Interactions, each on a freshly loaded list (nothing of the next state is cached yet).
    const statuses = ["sent", "returned"];
    const filter = await repeat("filter change", async (run) => {
      await freshList(page, `${console_}${list}`);
      return untilNewRows(page, async () => {
        await page.locator("#filter-status").selectOption(statuses[run % 2]!);
      });
    });
    const next = await repeat("next page", async () => {
      await freshList(page, `${console_}${list}`);
      return untilNewRows(page, () => page.getByRole("button", { name: "Next →" }).click());
    });
    const section = await repeat("section change", async () => {
      await freshList(page, `${console_}${list}`);
      return untilNewRows(page, () => page.locator('aside a[href="/network-transfers"]').click());
    });
    const paletteOpen: number[] = [];
    const palette = await repeat("palette jump", async (run) => {
      await freshList(page, `${console_}${list}`);
      const opened = await until(page, { selector: "[cmdk-input]" }, () => page.keyboard.press("Control+k"));
      if (run >= warmUps) paletteOpen.push(opened);
      await page.locator("[cmdk-input]").fill(detailId);
      await page.getByRole("option", { name: `Open ${detailId}` }).waitFor();
      return interaction(page, "detail-title", () => page.keyboard.press("Enter"));
    });

    // The header search, typed as a person types a name: from its last keystroke until the first hit for the whole
    // name is shown (the debounce, the request, the search over the index, the render). The hits of the name but its
    // last letter are shown first, as when a person pauses; the last keystroke takes them away at once (the box shows
    // only the answer to what it holds), so the hit waited for is the whole name's. The index is built at start: wait
    // for the name.
    const name = (await bankJson<{ data: Array<{ name: string }> }>("/counterparty?page_size=1")).data[0]!.name;
    await waitForSearchHit(page, name);
    const hitShown = '[data-testid="header-search-results"] [data-testid="search-hit"]';
    const search = await repeat("header search", async () => {
      await freshList(page, `${console_}${list}`);
      await page.keyboard.press("/");
      await page.keyboard.type(name.slice(0, -1));
      await page.locator(hitShown).first().waitFor();
      return until(page, { selector: hitShown }, () => page.keyboard.press(name.slice(-1)));
    });

    // Sort change, once the index is built (the search above waited for it): the amount header's menu is opened
    // first (its choices are a chunk of their own, loaded on the way to it), then choosing "highest first" is timed
    // until the index's first row is painted.
    const sort = await repeat("sort change", async () => {
      await freshList(page, `${console_}${list}`);
      const choice = await amountMenuOpen(page);
      return untilNewRows(page, () => choice.click());
    });

    const operations = await signedIn(browser, console_, "operations@demo.bank", "demo-operations-pass");
    const editor = await repeat("userdata editor", async (run) => {
      await operations.goto(`${console_}/network-transfers/${transfer}`, { waitUntil: "commit" });
      await hydrated(operations);
      const button = operations.getByRole("button", { name: "Edit userdata" });
      await button.waitFor();
      // The warm-ups load the editor's chunks. On a busy machine the first press can come before the panel's own
      // chunk has hydrated it, and React drops that press: a warm-up presses again until the editor shows.
      if (run < warmUps) {
        for (let press = 0; press < 10 && !(await operations.locator(".cm-editor").isVisible()); press++) {
          await button.click({ timeout: 2_000 }).catch(() => {});
          await operations.waitForTimeout(2_000);
        }
        return 0;
      }
      return until(operations, { selector: ".cm-editor" }, () => button.click());
    });

    // One traced load of each page and of its ceiling (caches as warm as in the runs above).
    const profiles: string[] = [];
    for (const [name, path, identifier] of [
      ["ACH list", list, "first-row"],
      ["ACH detail", detail, "detail-title"],
    ] as const) {
      profiles.push(...profileLines(`${name}, console`, await profileLoad(browser, page, `${console_}${path}`, () => hydrated(page))));
      const ceilingUrl = `${ceiling.origin}${path}`;
      profiles.push(
        ...profileLines(`${name}, ceiling`, await profileLoad(browser, page, ceilingUrl, () => staticLoad(page, ceilingUrl, identifier))),
      );
    }
    await ceiling.close();

    // The bank's own answers to what each of those asks of it.
    const floor = {
      list: median(await bankTimes(`${list}?page_size=${defaultPageSize}`)),
      detail: median(await bankTimes(`/ach/${detailId}`)),
      filter: median(await bankTimes(`${list}?page_size=${defaultPageSize}&status=sent`)),
      next: median(await bankTimes(`${list}?page_size=${defaultPageSize}&page_cursor=${lastId}`)),
      section: median(await bankTimes(`/network_transfer?page_size=${defaultPageSize}`)),
      editor: median(await bankTimes(`/network_transfer/${transfer}`)),
    };

    // Printed now: a run stopped during the routes' sizes and shifts below still has them.
    const listName = `ACH list, ${defaultPageSize} rows (the default page size)`;
    printPages(
      [
        { name: listName, ...listLoads, bankMs: floor.list },
        { name: "ACH detail", ...detailLoads, bankMs: floor.detail },
      ],
      `Median of ${runs} runs (after ${warmUps} warm-ups), from navigation start, each page, its HTML served static and its ceiling loaded in turn; the bank's answer is its median too. Load average (1 min) ${load1.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} after the profile.`,
    );
    printListHtml(listName, listLoads.console);
    printInteractions(
      [
        { name: "filter change (status select)", until: "new first row painted", values: filter, bankMs: floor.filter, limit: "ceiling" },
        { name: "next page (Next →)", until: "new first row painted", values: next, bankMs: floor.next, limit: "ceiling" },
        {
          name: "section change (sidebar: Network transfers)",
          until: "its first row painted",
          values: section,
          bankMs: floor.section,
          limit: "ceiling",
        },
        { name: "sort change (Amount menu: highest first)", until: "the index's first row painted", values: sort, limit: "ceiling" },
        { name: "Ctrl/Cmd-K", until: "palette input shown", values: paletteOpen, limit: targets.palette },
        { name: "palette: id typed, Enter", until: "detail title painted", values: palette, bankMs: floor.detail, limit: targets.palette },
        { name: "Edit userdata (operations role)", until: "editor shown", values: editor, bankMs: floor.editor, limit: targets.editor },
        { name: `header search: "${name}" typed`, until: "last keystroke → first hit shown", values: search, limit: targets.search },
      ],
      median(listLoads.ceiling.map((one) => one.fcp)),
    );
    console.log(`\n### From the first byte to the first paint\n\n${profiles.join("\n")}`);

    // "Every route" in the target, as the admin, who may open them all (a role without a page's permission would be
    // measured on the forbidden page instead): Home, each list, three details (one a webhook whose deliveries fail) and the
    // rest of the shell's pages.
    const admin = await signedIn(browser, console_, "admin@demo.bank", "demo-admin-pass");
    const failingWebhook = await webhookWithFailedDeliveries();
    const lists = new Set([...resourceList.map((definition) => definition.route), "/events", "/audit", "/reviews", "/approvals"]);
    const routes = [
      "/",
      ...resourceList.map((definition) => definition.route),
      detail,
      `/network-transfers/${transfer}`,
      `/webhooks/${failingWebhook}`,
      "/search",
      "/events",
      "/approvals",
      "/simulations",
      "/reviews",
      "/settings",
      "/settings/index",
      "/audit",
    ];
    const sizes: Array<[string, { kb: number; noModuleKb: number }]> = [];
    for (const route of routes) sizes.push([route, await firstLoadKb(admin, `${console_}${route}`)]);
    const shifts: Array<[string, number, number]> = [];
    for (const route of routes)
      shifts.push([route, await layoutShift(admin, `${console_}${route}`, 1440), await layoutShift(admin, `${console_}${route}`, 390)]);
    benchLog(`layout shift: ${routes.length} routes at 1440 and 390 px`);
    await browser.close();

    const shown = (route: string) => route.replace(detailId, "{id}").replace(transfer, "{id}").replace(failingWebhook, "{id} (failed deliveries)");
    printFirstLoad(
      sizes.map(([route, size]) => [shown(route), size]),
      (route) => lists.has(route),
    );
    printLayoutShift(shifts.map(([route, wide, narrow]) => [shown(route), wide, narrow]));
  } finally {
    await stopChild(child);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
