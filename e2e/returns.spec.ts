import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { achReturnCodeOf, explainFailure } from "@/lib/contract/reason-codes";
import { bankGet, contextAs } from "./support/bank";

/**
 * Returns explained, as an operations agent meets them against the production build and the sandbox bank: a returned
 * ACH transfer's page says its return code, what it means, what to do next and when it was returned (the bank's
 * updated_at); one click lists every transfer returned with the same code (the index's return_code filter). Axe
 * clean; screenshots at 390 and 1440 px, light and dark.
 */

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
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(
        violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical").map((violation) => violation.id),
      ).toEqual([]);
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
      for (const text of await rows.allTextContents()) expect(text).toContain(`${code} `);
      await expect(page.getByRole("columnheader", { name: /Return code/ })).toBeVisible();
    } finally {
      await context.close();
    }
  }
});
