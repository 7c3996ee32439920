import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { achReturnCodeOf, achReturnWords, explainFailure } from "@/lib/contract/reason-codes";
import { achReturnCodes } from "@/lib/contract/sandbox-reason-codes";
import { csvRecords } from "@/tests/support/parse-csv";
import { bankGet, bankSend, contextAs } from "./support/bank";

/**
 * Returns explained, as an operations agent meets them against the production build and the sandbox bank: a returned
 * ACH transfer's page says its return code, what it means, what to do next and when it was returned (the bank's
 * updated_at); one click lists every transfer returned with the same code (the index's return_code filter). The ACH
 * list's Return code column (the code alone, derived from the bank's error) and the export's return_code and
 * return_reason columns; from Home to a named counterparty's returned transfer in at most 3 actions. Axe clean;
 * screenshots at 390 and 1440 px, light and dark.
 */

async function expectAxeClean(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(
    violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical").map((violation) => violation.id),
  ).toEqual([]);
}

test("a returned ACH transfer explains its code in plain words, and one click lists every transfer with that code", async ({ browser }) => {
  test.setTimeout(120_000);
  const returned = (await bankGet("/ach?status=returned&page_size=1")).data[0]!;
  const code = achReturnCodeOf(returned.error)!;
  const reason = explainFailure("ach", returned)!;
  expect(code).toMatch(/^R\d\d$/);

  for (const colorScheme of ["light", "dark"] as const) {
    const context = await contextAs(browser, "operations", { colorScheme });
    try {
      const page = await context.newPage();
      await page.goto(`/ach/${String(returned.id)}`);
      const panel = page.getByTestId("failure-panel");
      await expect(panel.getByRole("heading", { name: "Why it was returned" })).toBeVisible();
      await expect(panel.getByTestId("failure-code")).toHaveText(`${code}${reason.title}`);
      await expect(panel.getByTestId("failure-meaning")).toHaveText(reason.meaning);
      await expect(panel.getByTestId("failure-next-step")).toHaveText(reason.nextStep);
      await expect(panel.getByTestId("failure-at").locator("time")).toHaveAttribute("datetime", String(returned.updated_at));
      await expectAxeClean(page);
      for (const width of [390, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: test.info().outputPath(`returned-ach-${colorScheme}-${width}.png`), fullPage: true });
      }
      if (colorScheme === "dark") continue;

      await panel.getByTestId("failure-same-code").click();
      await expect(page).toHaveURL(new RegExp(`/ach\\?return_code=${code}`));
      await expect(page.getByRole("button", { name: `Remove filter: return code ${code}` })).toBeVisible();
      const rows = page.getByTestId("bank-row");
      await expect(rows.first()).toBeVisible();
      // The column shows the code alone, its title and meaning on hover.
      await expect(page.getByRole("columnheader", { name: "Return code" })).toBeVisible();
      for (const row of await rows.all()) {
        await expect(row.locator("abbr", { hasText: new RegExp(`^${code}$`) })).toHaveAttribute(
          "title",
          `${code} ${reason.title}: ${reason.meaning}`,
        );
      }
    } finally {
      await context.close();
    }
  }
});

test("from Home to a named counterparty's returned ACH transfer and its reason in plain words, in at most 3 actions", async ({ browser }) => {
  test.setTimeout(120_000);
  // The caller names a counterparty whose transfer was returned today (R02, account closed).
  const counterparty = (await bankGet("/counterparty?page_size=100")).data.find((item) => item.ach && typeof item.name === "string")!;
  const created = await bankSend<{ id: string }>("POST", "/sandbox/ach", { counterparty_id: counterparty.id, amount: "2431.27" });
  expect(created.status).toBe(201);
  const id = created.body.id;
  expect((await bankSend("POST", `/sandbox/ach/${id}/transition`, { to: "returned", error: "R02" })).status).toBe(200);

  const context = await contextAs(browser, "operations");
  try {
    // The index learns of the return from the bank's events; the agent's walk starts once it has.
    await expect(async () => {
      const answer = (await (await context.request.get("/api/index-list/ach?return_code=R02")).json()) as { data: Array<{ id: string }> };
      expect(answer.data.map((item) => item.id)).toContain(id);
    }).toPass({ timeout: 30_000 });

    const page = await context.newPage();
    await page.goto("/");
    let actions = 0;
    // 1: today's returned ACH transfers.
    await page.locator('[data-label="ACH transfers returned"] [data-testid="home-figure-link"]').click();
    actions += 1;
    await expect(page).toHaveURL(/\/ach\?status=returned/);
    // 2: the row of the named counterparty, which shows the code alone.
    const link = page.locator(`a[href="/ach/${id}"]`);
    const row = page
      .getByTestId("bank-row")
      .filter({ hasText: String(counterparty.name) })
      .filter({ has: link });
    await expect(row.locator("abbr", { hasText: /^R02$/ })).toBeVisible();
    await row.locator(link).first().click();
    actions += 1;
    await expect(page).toHaveURL(new RegExp(`/ach/${id}$`));
    const panel = page.getByTestId("failure-panel");
    await expect(panel.getByTestId("failure-code")).toHaveText(`R02${achReturnCodes.R02}`);
    await expect(panel.getByTestId("failure-meaning")).toHaveText(achReturnWords.R02!.meaning);
    expect(actions).toBeLessThanOrEqual(3);

    // The export of the returned transfers carries the code and its reason in words beside the bank's own error.
    const exported = await context.request.get("/api/export/ach?status=returned");
    expect(exported.status()).toBe(200);
    const { header, records } = csvRecords(await exported.text());
    expect(header.slice(-2)).toEqual(["return_code", "return_reason"]);
    expect(records.find((record) => record.id === id)).toMatchObject({
      error: `R02 ${achReturnCodes.R02}`,
      return_code: "R02",
      return_reason: achReturnCodes.R02,
    });
  } finally {
    await context.close();
  }
});

test("the ACH list fits at 1440 px with the return code shown (Account a column to show); the failure columns of every kind, light and dark", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  for (const colorScheme of ["light", "dark"] as const) {
    const context = await contextAs(browser, "operations", { colorScheme });
    try {
      const page = await context.newPage();
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto("/ach?status=returned");
      await expect(page.getByTestId("bank-row").first()).toBeVisible();
      for (const name of ["Counterparty", "Return code"]) await expect(page.getByRole("columnheader", { name, exact: true })).toBeVisible();
      await expect(page.getByRole("columnheader", { name: "Account", exact: true })).toHaveCount(0);
      const table = page.locator("table").first();
      expect(await table.evaluate((element) => element.scrollWidth <= element.parentElement!.clientWidth)).toBe(true);
      await expectAxeClean(page);
      // Each list loaded once at desktop width (the ACH list is already there) and narrowed: the layout is CSS alone.
      for (const [path, name] of [
        ["/ach?status=returned", "ach"],
        ["/instant-payments?external_status=rejected", "instant-payments"],
        ["/network-transfers?status=error", "network-transfers"],
      ] as const) {
        await page.setViewportSize({ width: 1440, height: 900 });
        if (!page.url().endsWith(path)) await page.goto(path);
        await expect(page.getByTestId("bank-row").first()).toBeVisible();
        // axe on the last list at 1440 px in both themes, as on the first.
        if (name === "network-transfers") await expectAxeClean(page);
        for (const width of [1440, 390]) {
          await page.setViewportSize({ width, height: 900 });
          await expect.poll(() => page.evaluate(() => window.innerWidth)).toBe(width);
          await page.screenshot({ path: test.info().outputPath(`${name}-list-${colorScheme}-${width}.png`), fullPage: true });
        }
      }
    } finally {
      await context.close();
    }
  }
});
