import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { demoUser, signedInContext, signIn } from "./support/staff";

/**
 * The data grid (docs/console-pages.md, lists): columns arranged, sorted by the index, kept in a saved view across a
 * new session; rows selected by keyboard and "select all N matching" for the bulk bar.
 */

const headers = (page: Page) => page.getByRole("columnheader").allInnerTexts();
const cents = (text: string) => Number(text.replace(/[^0-9.]/g, "").replace(".", ""));

test("columns arranged and sorted, saved as a view, come back the same after signing out and in", async ({ browser }, testInfo) => {
  test.setTimeout(120_000);
  const { context, page } = await signedInContext(browser, "operations");
  const name = `Largest first ${Date.now()}`;
  await page.goto("/ach");

  // The bank's own list says its order in the header's menu; a sort there moves the list to the index.
  const amount = page.getByRole("columnheader", { name: "Amount" });
  await amount.getByText("Amount", { exact: true }).click();
  await expect(amount.getByText("The bank's order: newest first. Sorting here lists from the console's index.")).toBeVisible();
  await amount.getByRole("button", { name: "Sort by amount: highest first" }).click();
  await expect(page).toHaveURL(/[?&]sort=-amount/);
  await expect(page.getByTestId("index-source")).toBeVisible();
  await expect(amount).toHaveAttribute("aria-sort", "descending");
  await expect(page.getByTestId("bank-row").first()).toBeVisible();
  const amounts = (await page.getByTestId("bank-row").locator("td.num").allInnerTexts()).map(cents);
  expect(amounts.length).toBeGreaterThan(1);
  expect(amounts).toEqual([...amounts].sort((a, b) => b - a));

  // Hide one column, move one, widen one by keyboard.
  await page.getByText("Columns", { exact: true }).click();
  await page.getByRole("checkbox", { name: "Service" }).uncheck();
  await page.getByRole("button", { name: "Move Amount earlier" }).click();
  await page.getByText("Columns", { exact: true }).click();
  const width = page.getByRole("separator", { name: "Width of Amount" });
  await width.focus();
  for (let step = 0; step < 3; step++) await width.press("ArrowRight");
  const arranged = await headers(page);
  const setWidth = await width.getAttribute("aria-valuenow");
  expect(arranged.slice(1, 4).map((text) => text.trim().toLowerCase())).toEqual(["id", "amount ↓", "status"]);
  expect(arranged.join("|").toLowerCase()).not.toContain("service");
  expect(Number(setWidth)).toBeGreaterThan(48);

  await page.getByText("Save view", { exact: true }).first().click();
  const form = page.getByRole("form", { name: "Save view" });
  await form.getByLabel("Name").fill(name);
  await form.getByRole("button", { name: "Save view" }).click();
  await expect(page).toHaveURL(/[?&]view=view_/);

  await page.getByRole("button", { name: "Sign out" }).click();
  await signIn(page, demoUser("operations"));
  await page.getByRole("list", { name: "Saved views" }).getByRole("link", { name }).click();
  await expect(page).toHaveURL(/\/ach\?sort=-amount&view=view_/);
  await expect(page.getByTestId("bank-row").first()).toBeVisible();
  expect(await headers(page)).toEqual(arranged);
  await expect(page.getByRole("separator", { name: "Width of Amount" })).toHaveAttribute("aria-valuenow", setWidth!);
  // Sorted again by the index (the live sandbox may have added a transfer meanwhile, so the rows themselves may differ).
  await expect(page.getByRole("columnheader", { name: "Amount" })).toHaveAttribute("aria-sort", "descending");
  const again = (await page.getByTestId("bank-row").locator("td.num").allInnerTexts()).map(cents);
  expect(again).toEqual([...again].sort((a, b) => b - a));

  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    for (const viewport of [390, 1440]) {
      await page.setViewportSize({ width: viewport, height: 900 });
      await page.screenshot({ path: testInfo.outputPath(`grid-view-${viewport}-${colorScheme}.png`) });
    }
  }
  await context.close();
});

test("rows selected by keyboard and every matching one, for the bulk bar; axe clean", async ({ browser }, testInfo) => {
  test.setTimeout(90_000);
  const { context, page } = await signedInContext(browser, "operations");
  await page.goto("/ach?has_error=false&page_size=25");
  const rows = page.getByTestId("bank-row");
  await expect(rows.first()).toBeVisible();
  const ids = await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute("data-id")!));

  // Space selects the focused row; shift with an arrow selects as the focus moves.
  await rows.first().focus();
  await page.keyboard.press("Space");
  await expect(page.getByRole("checkbox", { name: `Select ${ids[0]}` })).toBeChecked();
  await page.keyboard.press("Shift+ArrowDown");
  await page.keyboard.press("Shift+j");
  for (const id of ids.slice(0, 3)) await expect(page.getByRole("checkbox", { name: `Select ${id}` })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: `Select ${ids[3]}` })).not.toBeChecked();
  const bar = page.getByRole("region", { name: "Selected rows" });
  await expect(bar).toContainText("3 selected");
  await page.keyboard.press("Space");
  await expect(bar).toContainText("2 selected");

  // Shift+click selects the range from the last row clicked.
  await page.getByRole("checkbox", { name: `Select ${ids[5]}` }).click();
  await page.getByRole("checkbox", { name: `Select ${ids[8]}` }).click({ modifiers: ["Shift"] });
  for (const id of ids.slice(5, 9)) await expect(page.getByRole("checkbox", { name: `Select ${id}` })).toBeChecked();

  // The page's checkbox, then every matching row from the index (its exact count), at most 500.
  await page.getByRole("checkbox", { name: "Select every row on this page" }).check();
  await expect(bar).toContainText(`${ids.length} selected`);
  const count = Number((await page.getByTestId("list-count").locator("strong").innerText()).replace(/[^0-9]/g, ""));
  const offer = page.getByTestId("select-matching");
  if (count > 500) {
    await expect(offer).toContainText("at most 500 rows can be selected at once");
  } else if (count > ids.length) {
    await offer.getByRole("button", { name: `Select all ${count.toLocaleString("en-US")} matching` }).click();
    await expect(bar).toContainText(`${count} selected`);
  }

  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(
    violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical").map((violation) => violation.id),
  ).toEqual([]);
  for (const viewport of [390, 1440]) {
    await page.setViewportSize({ width: viewport, height: 900 });
    await page.screenshot({ path: testInfo.outputPath(`grid-selection-${viewport}.png`) });
  }
  await bar.getByRole("button", { name: "Clear selection" }).click();
  await expect(bar).toHaveCount(0);
  await context.close();
});
