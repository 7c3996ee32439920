/**
 * bench:search's browser part (./search.ts): keystroke → results in the header search of a console started over the
 * index the bench built, in headless Chromium, as `npm start` serves it (scripts/console-server.ts, production build,
 * the store reached through DATABASE_URL: for PGlite, the socket the bench process serves, as start.ts serves its
 * embedded PGlite to the console). Timed as bench:pages times its header search (./pages-measure.ts `until`): from
 * the last keystroke's input event until the first hit for the whole text is shown and painted (the debounce, the
 * request, the search, the render). Typed on the counterparties list, a small one: a page whose own loading (a
 * million-row count) would compete with the search it measures.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { ensureConsoleBuilt } from "../lib/build";
import { hydrated, launchBenchChromium, signedIn, until } from "./pages-measure";
import { benchLog, startChild, stopChild, waitForHealth, waitUntilQuiet } from "./run";

const results = '[data-testid="header-search-results"]';
const hitShown = `${results} [data-testid="search-hit"]`;
/** What the box shows once it has the answer to what it holds: a hit, or that nothing matches. */
const answerShown = `${hitShown}, ${results} [data-testid="search-empty"]`;

/** One search typed into the header box of a freshly loaded page; milliseconds from the last keystroke to its first hit. */
async function typedSearch(page: Page, pageUrl: string, text: string): Promise<number> {
  await page.goto(pageUrl, { waitUntil: "commit" });
  await hydrated(page);
  await page.keyboard.press("/");
  // All but the last character, then the answer to it (hits or none), as when a person pauses before the last key:
  // the last keystroke replaces that answer at once (the box shows only the answer to what it holds).
  await page.keyboard.type(text.slice(0, -1));
  await page.locator(answerShown).first().waitFor();
  return until(page, { selector: hitShown }, () => page.keyboard.press(text.slice(-1)));
}

/**
 * For each query, `repeats` runs after one warm-up as `email` / `password`: keystroke → first hit shown, sorted
 * ascending. Each run loads the page afresh, so no answer is served from the browser's cache.
 */
export async function keystrokeTimes(options: {
  consoleDatabaseUrl: string;
  bankUrl: string;
  /** The port the bank was told the console listens on (./seeded-sandbox.ts), so the console's webhooks are allowed. */
  port: number;
  queries: Array<[string, string]>;
  repeats: number;
  email: string;
  password: string;
}): Promise<Map<string, number[]>> {
  ensureConsoleBuilt();
  const { port } = options;
  const consoleUrl = `http://127.0.0.1:${port}`;
  const dataRoot = mkdtempSync(path.join(tmpdir(), "bench-search-console-"));
  const child = startChild(process.execPath, ["--import", "tsx", "scripts/console-server.ts"], {
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    AUTH_TRUST_HOST: "true",
    AUTH_SECRET: randomBytes(32).toString("base64"),
    CREDENTIALS_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    DATABASE_URL: options.consoleDatabaseUrl,
    BANK_SANDBOX_URL: options.bankUrl,
    DATA_ROOT: dataRoot,
    HOST: "127.0.0.1",
    PORT: String(port),
    LOG_LEVEL: "warn",
  });
  child.stdout?.on("data", (chunk: Buffer) => process.stderr.write(chunk));
  const browser = await launchBenchChromium();
  try {
    await waitForHealth(`${consoleUrl}/api/health`, child, 180_000);
    // At start the console checks its index (the walk is finished, the search documents written) and its webhooks.
    await waitUntilQuiet(process.pid, 600_000);
    const page = await signedIn(browser, consoleUrl, options.email, options.password);
    // Signing in lands on Home, whose counts read the whole index; the store (PGlite runs in this process) settles
    // before the first keystroke is timed.
    const settling = performance.now();
    await waitUntilQuiet(process.pid, 600_000);
    benchLog(`after sign-in (Home), everything was quiet in ${((performance.now() - settling) / 1000).toFixed(1)} s`);
    const times = new Map<string, number[]>();
    for (const [kind, text] of options.queries) {
      const runs: number[] = [];
      for (let run = 0; run <= options.repeats; run += 1) {
        const elapsed = await typedSearch(page, `${consoleUrl}/counterparties`, text);
        if (run > 0) runs.push(elapsed);
      }
      times.set(kind, runs);
      benchLog(`browser: ${kind} typed ${options.repeats} times`);
    }
    return times;
  } finally {
    await browser.close();
    await stopChild(child);
    rmSync(dataRoot, { recursive: true, force: true });
  }
}
