import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { strayTimes } from "@/lib/format";
import { contextAs } from "./support/bank";

// Home as each role sees it: what needs attention today, each figure a link to the list that counts exactly it.

test("each role sees its own sections, and a figure's link lists exactly the figure's count", async ({ browser }) => {
  test.setTimeout(90_000);
  const admin = await contextAs(browser, "admin");
  const page = await admin.newPage();
  try {
    await page.goto("/");
    await expect(page.getByTestId("home-today")).toContainText("What needs attention today");
    for (const section of ["home-admin", "home-compliance", "home-operations"]) await expect(page.getByTestId(section)).toBeVisible();
    await expect(page.getByTestId("home-bank-state")).toContainText("The bank");
    await expect(page.getByTestId("volume-kind")).toHaveCount(3);

    // A stuck figure and a day of volume: the list they open counts what Home counted (the index serves both).
    await expect(async () => {
      await page.goto("/");
      const figure = page.getByTestId("home-operations").getByTestId("home-figure").first();
      const count = (await figure.getByTestId("home-figure-count").textContent())!.trim();
      await figure.getByTestId("home-figure-link").click();
      await expect(page).toHaveURL(/updated_in=/);
      await expect(page.getByTestId("index-source")).toBeVisible();
      await expect(page.getByTestId("list-count").locator("strong")).toHaveText(count, { timeout: 10_000 });
    }).toPass({ timeout: 45_000 });
    await page.goto("/");
    const today = page.getByTestId("volume-today").first();
    const todayCount = (await today.textContent())!.match(/Today ([\d,]+)/)![1]!;
    await today.click();
    await expect(page).toHaveURL(/created_in=/);
    await expect(page.getByTestId("list-count").locator("strong")).toHaveText(todayCount, { timeout: 10_000 });
  } finally {
    await admin.close();
  }

  const operations = await contextAs(browser, "operations");
  const operationsPage = await operations.newPage();
  try {
    await operationsPage.goto("/");
    await expect(operationsPage.getByTestId("home-operations")).toBeVisible();
    await expect(operationsPage.getByTestId("home-admin")).toHaveCount(0);
    await expect(operationsPage.getByTestId("home-compliance")).toHaveCount(0);
  } finally {
    await operations.close();
  }

  const compliance = await contextAs(browser, "compliance");
  const compliancePage = await compliance.newPage();
  try {
    await compliancePage.goto("/");
    const queue = compliancePage.getByTestId("home-compliance");
    await expect(queue.getByTestId("home-figure")).toHaveCount(3);
    await queue.getByTestId("home-figure").filter({ hasText: "Assigned to me" }).getByTestId("home-figure-link").click();
    await expect(compliancePage).toHaveURL("/reviews?assignee=mine");
  } finally {
    await compliance.close();
  }
});

for (const colorScheme of ["light", "dark"] as const) {
  // axe at 1440 px in both themes and at 390 px in light only: the dark theme changes colours, the same at every width;
  // the phone's run checks the narrow layout's structure, the same in both themes.
  const axeWidths = colorScheme === "light" ? [1440, 390] : [1440];
  test(`Home at 1440 and 390 px (${colorScheme}): screenshots, axe clean at ${axeWidths.join(" and ")} px`, async ({ browser }, testInfo) => {
    // A page load and its axe runs: over the default 30 s on a loaded machine.
    test.setTimeout(90_000);
    const context = await contextAs(browser, "admin", { colorScheme });
    const page = await context.newPage();
    try {
      // Loaded once at desktop width and narrowed: the page's layout is CSS alone.
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto("/");
      await expect(page.getByTestId("home-operations")).toBeVisible();
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await expect.poll(() => page.evaluate(() => window.innerWidth)).toBe(width);
        await expect(page.getByTestId("home-operations")).toBeVisible();
        // Every time on Home in the one format ("Nov 28, 08:43"; the exact second only on hover).
        expect(strayTimes(await page.locator("main").innerText())).toEqual([]);
        await page.screenshot({ path: testInfo.outputPath(`home-${width}-${colorScheme}.png`), fullPage: true });
        if (!axeWidths.includes(width)) continue;
        // As the shell's spec: no serious or critical violation.
        const axe = await new AxeBuilder({ page }).analyze();
        const serious = axe.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
        expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
      }
    } finally {
      await context.close();
    }
  });
}
