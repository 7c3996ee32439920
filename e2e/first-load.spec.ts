import { expect, test } from "@playwright/test";
import { baseURL } from "../playwright.config";
import { firstLoadScripts, gzipKb } from "../scripts/lib/first-load";
import { bankGet, bankSend, contextAs, type BankListAnswer } from "./support/bank";

/**
 * What a page makes the browser download before it works: the gzip size of the scripts each route's HTML loads,
 * against the budgets of docs/benchmarks.md (pages), on the production build. Heavy parts (CodeMirror, recharts, the
 * table engine, bulk actions) load later, so the heaviest routes are checked.
 */

/**
 * First-load ceilings, kB gzip (docs/benchmarks.md, pages), the budgets themselves: every page but the lists 170
 * (details, /simulations); lists on the data table (the webhooks list, the heaviest bank list, and approvals, the
 * heaviest of the console's own) 175. Their table engine (TanStack Table v9) loads after hydration, the shell's
 * progress bar, last-page recorder and live indicator after the first load.
 */
const firstLoadCeiling = { list: 175, other: 170 };
const listRoutes = new Set(["/webhooks", "/approvals"]);

test("the action pages keep their first-load JavaScript under their ceilings (CodeMirror, recharts, bulk actions load later)", async ({
  browser,
}) => {
  const webhook = (await bankSend<{ id: string }>("POST", "/webhook", { url: "http://127.0.0.1:9/never-answers", event: "fednow.create" })).body;
  const transfer = (await bankGet<BankListAnswer>("/network_transfer?page_size=1")).data[0];
  const card = (await bankGet<BankListAnswer>("/card?page_size=1")).data[0]!;
  const context = await contextAs(browser, "admin");
  const sizes: Record<string, number> = {};
  try {
    for (const route of [
      "/webhooks",
      "/approvals",
      `/webhooks/${webhook.id}`,
      `/network-transfers/${transfer!.id}`,
      `/cards/${card.id}`,
      "/simulations",
    ]) {
      const { modern: scripts } = firstLoadScripts(await (await context.request.get(`${baseURL}${route}`)).text());
      expect(scripts.length, `${route} loads the framework's scripts (the measure sees them)`).toBeGreaterThan(4);
      const kb = gzipKb(scripts);
      sizes[route.replace(/\/[a-z]+_[A-Za-z0-9_-]+$/, "/{id}")] = Math.round(kb * 10) / 10;
    }
  } finally {
    await context.close();
  }
  console.log("first-load JS (kB gzip):", JSON.stringify(sizes));
  expect(Object.keys(sizes)).toHaveLength(6);
  for (const [route, kb] of Object.entries(sizes))
    expect(kb, route).toBeLessThanOrEqual(listRoutes.has(route) ? firstLoadCeiling.list : firstLoadCeiling.other);
});
