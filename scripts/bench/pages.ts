/**
 * `npm run bench:pages`: how fast the console's bank pages render in a real browser, beside the bank's own answer time
 * in the same run. Starts what `npm start` starts (production build, in-memory sandbox data) on its own ports, signs
 * in as the viewer in headless Chromium, then for a 100-row ACH list and an ACH detail page measures, over 20 fresh
 * navigations each, the time from navigation start to the first rendered row / the detail title (Element Timing API:
 * the `elementtiming` marks the data table and the detail layout put on them), and the same request to the sandbox
 * bank directly (node fetch, 20 times). Also the first-load JavaScript of every route: the gzip size of every script
 * the route's HTML references. Prints a Markdown report (stdout); progress goes to stderr.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { chromium, type Page } from "@playwright/test";
import { resourceList } from "@/lib/resources";
import { resolveChromium } from "../lib/chromium";
import { startChild, stopChild, waitForHealth } from "./run";

const port = Number(process.env.BENCH_PAGES_PORT ?? 3050);
const sandboxPort = Number(process.env.BENCH_PAGES_SANDBOX_PORT ?? 4050);
const console_ = `http://127.0.0.1:${port}`;
const bank = `http://127.0.0.1:${sandboxPort}`;
const bankAuth = `Basic ${Buffer.from("sandbox-demo-key:sandbox-demo-secret-change-me").toString("base64")}`;
const runs = 20;
const targets = { listMs: 500, detailMs: 300, firstLoadKb: 250 };

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function bankTime(pathAndQuery: string): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < runs + 2; run++) {
    const started = performance.now();
    const response = await fetch(`${bank}${pathAndQuery}`, { headers: { authorization: bankAuth } });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`bank ${pathAndQuery}: HTTP ${response.status}`);
    if (run >= 2) times.push(performance.now() - started); // two warm-up requests
  }
  return times;
}

/** Milliseconds from navigation start until the element marked `elementtiming=<identifier>` was painted. */
async function renderTime(page: Page, url: string, identifier: string): Promise<number> {
  await page.goto(url, { waitUntil: "commit" });
  return page.evaluate(
    (name) =>
      new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no element timing ${name}`)), 15_000);
        new PerformanceObserver((list) => {
          const entry = list.getEntries().find((candidate) => (candidate as PerformanceEntry & { identifier: string }).identifier === name) as
            | (PerformanceEntry & { renderTime: number; loadTime: number })
            | undefined;
          if (entry) {
            clearTimeout(timer);
            resolve(entry.renderTime || entry.loadTime);
          }
        }).observe({ type: "element", buffered: true });
      }),
    identifier,
  );
}

async function pageTimes(page: Page, url: string, identifier: string): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < runs + 2; run++) {
    const time = await renderTime(page, url, identifier);
    if (run >= 2) times.push(time);
  }
  return times;
}

/** Gzip size of the scripts a route's HTML loads before anything else (what Next.js calls first-load JS). */
async function firstLoadKb(page: Page, route: string): Promise<number> {
  const html = await (await page.request.get(`${console_}${route}`)).text();
  const scripts = [...new Set([...html.matchAll(/\/_next\/static\/[^"'\s>]+?\.js/g)].map((match) => match[0]))];
  const bytes = scripts.reduce((sum, script) => sum + gzipSync(readFileSync(path.join(".next/static", script.slice("/_next/static/".length).split("?")[0]!))).length, 0);
  return bytes / 1024;
}

async function main() {
  const child = startChild(path.resolve("node_modules/.bin/tsx"), ["scripts/start.ts"], {
    PORT: String(port),
    SANDBOX_PORT: String(sandboxPort),
    SANDBOX_DATA: "memory",
    LOG_LEVEL: "warn",
  });
  child.stdout?.on("data", (chunk: Buffer) => process.stderr.write(chunk));
  try {
    await waitForHealth(`${console_}/api/health`, child, 300_000);
    const browser = await chromium.launch({
      executablePath: resolveChromium() ?? undefined,
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--no-first-run"],
    });
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${console_}/sign-in`);
    await page.getByLabel("Email").fill("viewer@demo.bank");
    await page.getByLabel("Password").fill("demo-viewer-pass");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"));

    const listQuery = "/ach?page_size=100";
    const firstPage = (await (await fetch(`${bank}${listQuery}`, { headers: { authorization: bankAuth } })).json()) as { data: Array<{ id: string }> };
    const detailId = firstPage.data[0]!.id;
    process.stderr.write(`measuring ${listQuery} and /ach/${detailId}, ${runs} runs each\n`);
    const list = { page: median(await pageTimes(page, `${console_}${listQuery}`, "first-row")), bank: median(await bankTime(listQuery)) };
    const detail = { page: median(await pageTimes(page, `${console_}/ach/${detailId}`, "detail-title")), bank: median(await bankTime(`/ach/${detailId}`)) };

    const routes = ["/", ...resourceList.map((definition) => definition.route), `/ach/${detailId}`, "/audit"];
    const sizes: Array<[string, number]> = [];
    for (const route of routes) sizes.push([route, await firstLoadKb(page, route)]);
    await browser.close();

    const ok = (value: number, limit: number) => (value <= limit ? "met" : "**missed**");
    console.log(`| measure (median of ${runs}) | console page | bank's own answer | target | |`);
    console.log("|---|---|---|---|---|");
    console.log(`| navigation → first of 100 ACH rows rendered | ${list.page.toFixed(0)} ms | ${list.bank.toFixed(1)} ms | < ${targets.listMs} ms | ${ok(list.page, targets.listMs)} |`);
    console.log(`| navigation → ACH detail rendered | ${detail.page.toFixed(0)} ms | ${detail.bank.toFixed(1)} ms | < ${targets.detailMs} ms | ${ok(detail.page, targets.detailMs)} |`);
    console.log("\n| route | first-load JS (gzip) | |\n|---|---|---|");
    for (const [route, kb] of sizes) console.log(`| \`${route.replace(detailId, "{id}")}\` | ${kb.toFixed(1)} kB | ${ok(kb, targets.firstLoadKb)} |`);
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
