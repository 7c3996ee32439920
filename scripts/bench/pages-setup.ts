/**
 * bench:pages' settings (ports, number of runs) and what it asks of the sandbox bank directly: the bank's own answer
 * times (the floor beside the console's), the ids it opens, and a webhook whose deliveries fail.
 */
import type { Page } from "@playwright/test";
import { benchLog, sandboxBankAuthorization } from "./run";

export const port = Number(process.env.BENCH_PAGES_PORT ?? 3050);
export const sandboxPort = Number(process.env.BENCH_PAGES_SANDBOX_PORT ?? 4050);
export const consoleOrigin = `http://127.0.0.1:${port}`;
const bank = `http://127.0.0.1:${sandboxPort}`;
const runsFlag = process.argv.indexOf("--runs");
export const runs = Number(runsFlag > 0 ? process.argv[runsFlag + 1] : (process.env.BENCH_PAGES_RUNS ?? 20));
if (!Number.isInteger(runs) || runs < 1) throw new Error(`runs must be a positive integer, got ${runs}`);
export const warmUps = 2;

/** Runs `measure` warm-ups + N times and keeps the last N. */
export async function repeat<T>(label: string, measure: (run: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let run = 0; run < runs + warmUps; run++) {
    const result = await measure(run);
    if (run >= warmUps) results.push(result);
  }
  benchLog(`${label}: ${runs} runs`);
  return results;
}

/** The bank's own answer time to `pathAndQuery`, N times after the warm-ups. */
export async function bankTimes(pathAndQuery: string, method = "GET"): Promise<number[]> {
  return repeat(`bank ${method} ${pathAndQuery}`, async () => {
    const started = performance.now();
    const response = await fetch(`${bank}${pathAndQuery}`, { method, headers: { authorization: sandboxBankAuthorization } });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`bank ${pathAndQuery}: HTTP ${response.status}`);
    return performance.now() - started;
  });
}

export async function bankJson<T>(pathAndQuery: string, body?: object): Promise<T> {
  const response = await fetch(`${bank}${pathAndQuery}`, {
    method: body ? "POST" : "GET",
    headers: { authorization: sandboxBankAuthorization, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`bank ${pathAndQuery}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

/**
 * A webhook whose deliveries fail (nothing listens on port 9), settled: its failed attempts put it in `error`, which
 * stops its deliveries, before it is measured. Its page reads the attempts after the first paint, the late content the
 * layout-shift target is about; measured while still failing, the page also took the live change to `error` (a longer
 * "Why it entered error" line, 20 px) as a layout shift now and then (0.02-0.08 at 1440 px).
 */
export async function webhookWithFailedDeliveries(): Promise<string> {
  const { id } = await bankJson<{ id: string }>("/webhook", { url: "http://127.0.0.1:9/bench-pages", event: "counterparty.create" });
  for (let created = 0; created < 3; created++) await bankJson("/sandbox/counterparty", {});
  for (const started = Date.now(); Date.now() - started < 120_000; await new Promise((resolve) => setTimeout(resolve, 1_000))) {
    const failed = await bankJson<{ data: unknown[] }>(`/webhook/${id}/deliveries?succeeded=false&page_size=25`);
    const { status } = await bankJson<{ status: string }>(`/webhook/${id}`);
    if (failed.data.length < 3 || status !== "error") continue;
    // The console learns of the change by the bank's own notifications: give them time to arrive and be shown.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    return id;
  }
  throw new Error(`webhook ${id}: not in error with 3 failed delivery attempts after 120 s`);
}

/** Waits until the console's search finds `text` (the index is built in the background at start). */
export async function waitForSearchHit(page: Page, text: string) {
  for (const started = Date.now(); Date.now() - started < 120_000; await new Promise((resolve) => setTimeout(resolve, 1_000))) {
    const answer = await page.request.get(`${consoleOrigin}/api/search?${new URLSearchParams({ q: text })}`);
    if (answer.ok() && ((await answer.json()) as { total: number }).total > 0) return;
  }
  throw new Error(`the console's search never found ${text}`);
}
