import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { bankGet, contextAs } from "./support/bank";

/**
 * Names in filters and the person's and business's views (docs/search.md, "Names in filters"; docs/console-pages.md):
 * the ACH list filtered by a counterparty's name, the counterparties list by name from the index, a person's and a
 * business's linked items, one key from the filters to the first row, the creation dates in one control; screenshots
 * at 390 and 1440 px, light and dark, with no serious accessibility violation.
 */

/** The counterparty with the most ACH transfers on the bank's first page of them, its name and its transfers. */
async function busyCounterparty() {
  const transfers = (await bankGet("/ach?page_size=100")).data;
  const counts = new Map<string, number>();
  for (const transfer of transfers) counts.set(String(transfer.counterparty_id), (counts.get(String(transfer.counterparty_id)) ?? 0) + 1);
  const [id] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
  const counterparty = await bankGet<{ name: string }>(`/counterparty/${id}`);
  const own = (await bankGet(`/ach?counterparty_id=${id}&page_size=100`)).data;
  return { id, name: counterparty.name, transfers: own };
}

/** A person application whose person holds a card, and that card. */
async function personWithCard() {
  const cards = (await bankGet("/card?page_size=100")).data.filter((card) => card.person_id);
  for (const card of cards) {
    const [application] = (await bankGet(`/apply/person_application?person_id=${String(card.person_id)}&page_size=1`)).data;
    if (application) return { applicationId: String(application.id), cardId: String(card.id) };
  }
  throw new Error("no person application whose person holds a card");
}

async function seriousViolations(page: Page) {
  const axe = await new AxeBuilder({ page }).analyze();
  // Each violation with the elements it found, so a failure says where.
  return axe.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => `${node.target.join(" ")} ${node.failureSummary ?? ""}`).join("; ")}`);
}

async function shoot(page: Page, testInfo: TestInfo, name: string) {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
  expect(await seriousViolations(page), name).toEqual([]);
}

test("the ACH list filtered by a counterparty's name: resolved through the search, the name beside the id in the chip", async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await contextAs(browser, "operations");
  const page = await context.newPage();
  const { id, name, transfers } = await busyCounterparty();
  await page.goto("/ach");
  await page.getByTestId("more-filters").click();
  await page.locator("#filter-counterparty_id").fill(name);
  // The index's backfill at start reaches the counterparties in a while: the name resolves once it has.
  await expect
    .poll(
      async () => {
        await page.getByRole("button", { name: "Apply", exact: true }).first().click();
        const choices = page.getByTestId("name-choices");
        await expect(page.getByRole("button", { name: "Apply", exact: true }).first()).toBeEnabled();
        if (await choices.isVisible()) await choices.getByRole("button", { name: new RegExp(id) }).click();
        return new URL(page.url()).searchParams.get("counterparty_id");
      },
      { timeout: 60_000 },
    )
    .toBe(id);
  const chip = page.getByTestId("id-filter-chip");
  await expect(chip).toContainText(id);
  await expect(chip.getByTestId("name-beside")).toHaveText(name);
  const rows = page.getByTestId("bank-row");
  await expect(rows.first()).toHaveAttribute("data-id", String(transfers[0]!.id));
  // The bank's own answer: the name only chose the id.
  await expect(page.getByTestId("index-source")).toHaveCount(0);
  await context.close();
});

test("the counterparties list filters by name from the index, and says so", async ({ browser }) => {
  const context = await contextAs(browser, "viewer");
  const page = await context.newPage();
  const { id, name } = await busyCounterparty();
  const word = name.split(" ")[0]!;
  await page.goto("/counterparties");
  // The index's filters sit under "More filters" beside the bank's own dates.
  await page.getByTestId("more-filters").click();
  // The table's Name column has a header menu of that name too: the filter's box by its id.
  await page.locator("#filter-name").fill(word);
  await page.locator("#filter-name").press("Enter");
  await expect(page).toHaveURL(new RegExp(`name=${encodeURIComponent(word)}`));
  await expect(page.getByTestId("index-source")).toContainText("From the console's index");
  await expect(page.getByTestId("filter-chip")).toContainText(`name “${word}”`);
  await expect(page.locator(`[data-testid="bank-row"][data-id="${id}"]`)).toBeVisible();
  for (const text of await page.getByTestId("bank-row").allInnerTexts()) expect(text.toLowerCase()).toContain(word.toLowerCase());
  await context.close();
});

test("Tab from the filters reaches the first row through the skip link; the creation dates are one control with one Apply", async ({ browser }) => {
  const context = await contextAs(browser, "viewer");
  const page = await context.newPage();
  await page.goto("/ach");
  await page.getByRole("button", { name: "Apply", exact: true }).first().focus();
  await page.keyboard.press("Tab");
  const skip = page.getByTestId("skip-to-rows").first();
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press("Enter");
  const first = page.getByTestId("bank-row").first();
  await expect(first).toBeFocused();
  // `j` from a filter button goes there too.
  await page.getByTestId("more-filters").focus();
  await page.keyboard.press("j");
  await expect(first).toBeFocused();

  await page.getByTestId("more-filters").click();
  // The index's creation presets beside the bank's one Created control, applied with the index's Apply.
  const indexFilters = page.getByRole("form", { name: "Filters from the console's index" });
  await indexFilters.getByLabel("Created within").selectOption("last_7_days");
  await expect(page).not.toHaveURL(/created=/);
  await indexFilters.getByRole("button", { name: "Apply", exact: true }).click();
  await expect(page).toHaveURL(/created=last_7_days/);
  await expect(page.getByTestId("filter-chip")).toContainText("created last 7 days");
  await context.close();
});

test("a person's page shows what the index links to it; a business's its owners", async ({ browser }) => {
  test.setTimeout(90_000);
  const context = await contextAs(browser, "viewer");
  const page = await context.newPage();
  const { applicationId, cardId } = await personWithCard();
  await page.goto(`/applications/person/${applicationId}`);
  const links = page.getByTestId("customer-links");
  await expect
    .poll(
      async () => {
        await page.reload();
        await expect(links.getByTestId("customer-source")).toBeVisible();
        return links.locator(`[data-testid="customer-linked"][data-id="${cardId}"]`).count();
      },
      { timeout: 60_000 },
    )
    .toBe(1);
  await expect(links.getByTestId("customer-account").first()).toBeVisible();
  await expect(links.getByTestId("customer-change").first()).toBeVisible();
  // The card is listed, and its versions among the recent changes.
  await links.getByTestId("customer-linked").getByRole("link", { name: cardId }).click();
  await expect(page).toHaveURL(`/cards/${cardId}`);

  const [business] = (await bankGet("/apply/business_application?page_size=1")).data;
  await page.goto(`/applications/business/${String(business!.id)}`);
  await expect(page.getByTestId("customer-links").getByTestId("customer-linked").first()).toBeVisible({ timeout: 30_000 });
  await context.close();
});

for (const colorScheme of ["light", "dark"] as const) {
  test(`the changed pages at 390 and 1440 px (${colorScheme}): screenshots, no serious accessibility violation`, async ({ browser }, testInfo) => {
    // A ceiling for a loaded machine: ten screenshots, each with its axe check.
    test.setTimeout(240_000);
    const context = await contextAs(browser, "viewer", { colorScheme });
    const page = await context.newPage();
    const { id, name } = await busyCounterparty();
    const { applicationId } = await personWithCard();
    const [business] = (await bankGet("/apply/business_application?page_size=1")).data;
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/ach?counterparty_id=${id}`);
      await expect(page.getByTestId("id-filter-chip").getByTestId("name-beside")).toHaveText(name);
      // An id filter in the URL opens "More filters" on arrival.
      if ((await page.getByTestId("more-filters").getAttribute("aria-expanded")) !== "true") await page.getByTestId("more-filters").click();
      await page.getByTestId("bank-created-summary").click();
      await shoot(page, testInfo, `ach-filters-${width}-${colorScheme}`);
      await page.goto(`/ach`);
      await page.getByTestId("more-filters").click();
      await page.locator("#filter-counterparty_id").fill(name.split(" ")[0]!);
      await page.getByRole("button", { name: "Apply", exact: true }).first().click();
      await expect(page.getByTestId("name-choices").or(page.getByTestId("id-filter-chip"))).toBeVisible();
      await shoot(page, testInfo, `ach-name-choices-${width}-${colorScheme}`);
      await page.goto(`/counterparties?name=${encodeURIComponent(name.split(" ")[0]!)}`);
      await expect(page.getByTestId("index-source")).toBeVisible();
      await shoot(page, testInfo, `counterparties-name-${width}-${colorScheme}`);
      await page.goto(`/applications/person/${applicationId}`);
      await expect(page.getByTestId("customer-links").getByTestId("customer-source")).toBeVisible({ timeout: 30_000 });
      await page.getByTestId("customer-links").scrollIntoViewIfNeeded();
      await shoot(page, testInfo, `person-${width}-${colorScheme}`);
      await page.goto(`/applications/business/${String(business!.id)}`);
      await expect(page.getByTestId("customer-links").getByTestId("customer-source")).toBeVisible({ timeout: 30_000 });
      await page.getByTestId("customer-links").scrollIntoViewIfNeeded();
      await shoot(page, testInfo, `business-${width}-${colorScheme}`);
    }
    await context.close();
  });
}
