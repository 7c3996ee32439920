import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { bankGet, contextAs } from "./support/bank";

/**
 * A counterparty's page as a customer view (docs/search.md, "A customer's movements"): every money movement naming
 * it, from the console's index, newest first in pages of 10, its totals over the last 30 days, each row opening the
 * movement; screenshots at 390 and 1440 px, light and dark, with no serious accessibility violation (axe at 1440 px in
 * both themes, at 390 px in light).
 */

/** The counterparty with the most ACH transfers on the bank's first page of them, and those transfers (the bank's order). */
async function busyCounterparty() {
  const transfers = (await bankGet("/ach?page_size=100")).data;
  const counts = new Map<string, number>();
  for (const transfer of transfers) counts.set(String(transfer.counterparty_id), (counts.get(String(transfer.counterparty_id)) ?? 0) + 1);
  const [id] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
  const own = (await bankGet(`/ach?counterparty_id=${id}&page_size=100`)).data;
  return { id, transfers: own };
}

test("a counterparty's page lists the movements naming it, newest first, paged, with 30-day totals, and opens one", async ({ browser }) => {
  test.setTimeout(90_000);
  const context = await contextAs(browser, "viewer");
  const page = await context.newPage();
  const { id, transfers } = await busyCounterparty();
  await page.goto(`/counterparties/${id}`);
  const section = page.getByTestId("customer-movements");
  // The index's backfill at start reaches the transfers in a while: the section shows them once it has.
  await expect
    .poll(
      async () => {
        await page.reload();
        // The section asks the index after the page loads: count its rows once its answer is there.
        await expect(section.getByTestId("customer-source")).toBeVisible();
        return section.getByTestId("customer-movement").count();
      },
      { timeout: 60_000 },
    )
    .toBe(Math.min(10, transfers.length));
  const newestFirst = [...transfers].sort(
    (a, b) => String(b.created_at).localeCompare(String(a.created_at)) || String(b.id).localeCompare(String(a.id)),
  );
  await expect(section.getByTestId("customer-movement")).toHaveCount(Math.min(10, transfers.length));
  const shown = await section.getByTestId("customer-movement").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-id")));
  expect(shown).toEqual(newestFirst.slice(0, 10).map((transfer) => transfer.id));
  await expect(section.getByTestId("customer-totals")).toContainText("Last 30 days: received $");
  await expect(section.getByTestId("customer-source")).toContainText("From the console's index, updated");
  if (transfers.length > 10) {
    await section.getByRole("button", { name: "Older →" }).click();
    await expect(section.getByTestId("customer-movement").first()).toHaveAttribute("data-id", String(newestFirst[10]!.id));
    await section.getByRole("button", { name: "← Newer" }).click();
  }
  await section.getByRole("link", { name: String(newestFirst[0]!.id) }).click();
  await expect(page).toHaveURL(`/ach/${newestFirst[0]!.id}`);
  await context.close();
});

for (const colorScheme of ["light", "dark"] as const) {
  // axe at 1440 px in both themes and at 390 px in light only: the dark theme changes colours, the same at every width;
  // the phone's run checks the narrow layout's structure, the same in both themes.
  const axeWidths = colorScheme === "light" ? [1440, 390] : [1440];
  test(`a counterparty's movements at 1440 and 390 px (${colorScheme}): screenshots, no serious accessibility violation at ${axeWidths.join(" and ")} px`, async ({
    browser,
  }, testInfo) => {
    // Two widths and their axe runs: over the default 30 s on a loaded machine.
    test.setTimeout(90_000);
    const context = await contextAs(browser, "viewer", { colorScheme });
    const page = await context.newPage();
    const { id } = await busyCounterparty();
    // Loaded once at desktop width and narrowed: the page's layout is CSS alone.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/counterparties/${id}`);
    await expect(page.getByTestId("customer-totals")).toBeVisible({ timeout: 30_000 });
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expect.poll(() => page.evaluate(() => window.innerWidth)).toBe(width);
      await page.getByTestId("customer-movements").scrollIntoViewIfNeeded();
      await page.screenshot({ path: testInfo.outputPath(`customer-${width}-${colorScheme}.png`), fullPage: true });
      if (!axeWidths.includes(width)) continue;
      const axe = await new AxeBuilder({ page }).analyze();
      expect(
        axe.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical").map((violation) => violation.id),
      ).toEqual([]);
    }
    await context.close();
  });
}
