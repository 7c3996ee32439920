import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { formatCalendarDate } from "@/lib/format";
import { bankGet, contextAs, type BankListAnswer } from "./support/bank";

/**
 * The bank's own creation filters (`from_date` inclusive, `to_date` exclusive) as one "Created" control: a button that
 * says the range in use and opens a popover with the two days and one Apply (components/bank/created-range.tsx). Picked
 * with the keyboard alone, applied to the URL, and the rows are still the bank's own answer.
 */

const rowIds = (page: Page) => page.getByTestId("bank-row").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-id")));
const day = (iso: string) => iso.slice(0, 10);
const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 24 * 3600_000).toISOString().slice(0, 10);
/** A day as Chromium's date input takes it from the keyboard in en-US: month, day, year. */
const typed = (date: string) => `${date.slice(5, 7)}${date.slice(8, 10)}${date.slice(0, 4)}`;

/** Tab until `target` has the focus (a date input's month, day and year each take a Tab in Chromium). */
async function tabTo(page: Page, target: Locator) {
  for (let presses = 0; presses < 8 && !(await target.evaluate((element) => element === document.activeElement)); presses++)
    await page.keyboard.press("Tab");
  await expect(target).toBeFocused();
}

async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
}

test("the creation dates are one Created control: a range picked with the keyboard, one Apply, the bank's own rows", async ({
  browser,
}, testInfo) => {
  // Sign-in, axe twice and four screenshots: minutes on a loaded machine.
  test.setTimeout(300_000);
  // A day with transfers on it: the creation day of a transfer on the bank's first page.
  const [transfer] = (await bankGet<BankListAnswer>("/ach?page_size=5")).data.slice(-1);
  const from = day(String(transfer!.created_at));
  const to = nextDay(from);
  const context = await contextAs(browser, "viewer");
  const page = await context.newPage();
  try {
    await page.goto("/ach?page_size=25");
    const filters = page.getByRole("form", { name: "Filters", exact: true });
    const created = filters.getByTestId("bank-created-summary");
    await expect(created).toHaveText("Created: any time");
    // Two date boxes no more: the days are inside the one control.
    await expect(filters.locator('input[type="date"]:visible')).toHaveCount(0);

    await created.focus();
    await page.keyboard.press("Enter");
    const first = page.getByLabel("On or after (UTC)");
    await expect(first).toBeVisible();
    await page.keyboard.press("Tab");
    await expect(first).toBeFocused();
    await page.keyboard.type(typed(from));
    await expect(first).toHaveValue(from);
    const second = page.getByLabel("Before (UTC)");
    await tabTo(page, second);
    await page.keyboard.type(typed(to));
    await expect(second).toHaveValue(to);
    // Nothing applies until the one Apply.
    await expect(page).not.toHaveURL(/from_date=/);
    expect(await seriousViolations(page)).toEqual([]);
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      for (const width of [390, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: testInfo.outputPath(`ach-created-open-${width}-${colorScheme}.png`) });
      }
    }
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize({ width: 1440, height: 900 });

    await tabTo(page, page.getByRole("button", { name: "Apply dates" }));
    await page.keyboard.press("Enter");
    // The URL holds both bounds, in whatever order the list writes its parameters, beside the page size it kept.
    await expect
      .poll(() => {
        const query = new URL(page.url()).searchParams;
        return [query.get("from_date"), query.get("to_date"), query.get("page_size")];
      })
      .toEqual([from, to, "25"]);
    await expect(filters.getByTestId("bank-created-summary")).toHaveText(`Created: on ${formatCalendarDate(from)} (UTC)`);
    // The bank's own answer to the same filters, in its order.
    await expect(async () => {
      expect(await rowIds(page)).toEqual((await bankGet(`/ach?page_size=25&from_date=${from}&to_date=${to}`)).data.map((object) => object.id));
    }).toPass({ timeout: 15_000 });
    expect(await rowIds(page)).toContain(transfer!.id);

    // Escape closes the popover and gives the focus back to its button; a reload keeps the range (the URL holds it).
    await filters.getByTestId("bank-created-summary").click();
    await expect(page.getByLabel("On or after (UTC)")).toHaveValue(from);
    await page.keyboard.press("Escape");
    await expect(page.getByLabel("On or after (UTC)")).toBeHidden();
    await expect(filters.getByTestId("bank-created-summary")).toBeFocused();
    await page.reload();
    await expect(page.getByTestId("bank-created-summary")).toHaveText(`Created: on ${formatCalendarDate(from)} (UTC)`);
    // Another filter applied keeps the range the URL holds.
    await filters.getByLabel("Status").selectOption({ index: 1 });
    await expect(page).toHaveURL(/status=/);
    await expect(page).toHaveURL(new RegExp(`from_date=${from}`));
    expect(await seriousViolations(page)).toEqual([]);
  } finally {
    await context.close();
  }
});

test("with More filters open a list still has one Created control: the index's filters offer their presets beside it, and from_date stays the bank's", async ({
  browser,
}, testInfo) => {
  test.setTimeout(300_000);
  const context = await contextAs(browser, "viewer");
  const page = await context.newPage();
  try {
    await page.goto("/ach?page_size=25&from_date=2020-01-01");
    await expect(page.getByTestId("more-filters")).toHaveAttribute("aria-expanded", "false");
    await page.getByTestId("more-filters").click();
    const indexFilters = page.getByRole("form", { name: "Filters from the console's index" });
    const preset = indexFilters.getByLabel("Created within");
    await expect(preset).toBeVisible();
    // One button of creation days in the filters (the table's Created column has a sort menu of its own).
    await expect(page.locator("form summary").filter({ hasText: /^Created/ })).toHaveCount(1);
    await expect(page.getByTestId("bank-created-summary")).toHaveText(`Created: from ${formatCalendarDate("2020-01-01")} (UTC)`);
    await expect(indexFilters.locator('input[type="date"]')).toHaveCount(0);
    expect(await seriousViolations(page)).toEqual([]);
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      for (const width of [390, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: testInfo.outputPath(`ach-more-filters-${width}-${colorScheme}.png`), fullPage: true });
      }
    }
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize({ width: 1440, height: 900 });

    // A preset is the index's `created`; the bank's day stays `from_date`, and the list is then the index's answer.
    await preset.selectOption("last_7_days");
    await indexFilters.getByRole("button", { name: "Apply", exact: true }).click();
    await expect
      .poll(() => {
        const query = new URL(page.url()).searchParams;
        return [query.get("created"), query.get("from_date"), query.get("created_from")];
      })
      .toEqual(["last_7_days", "2020-01-01", null]);
    await expect(page.getByTestId("filter-chip")).toContainText("created last 7 days");
    await expect(page.getByTestId("index-source")).toBeVisible();
  } finally {
    await context.close();
  }
});
