import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { contextAs, everyConsolePage } from "./support/bank";

/**
 * Every page, light and dark: no serious or critical accessibility violation (axe), and a full-page screenshot kept as
 * a test artifact so a person can look at what was built.
 */
for (const colorScheme of ["light", "dark"] as const) {
  test(`no serious or critical accessibility violation on any page (${colorScheme})`, async ({ browser }, testInfo) => {
    // Every page with axe, on a 2-core machine shared with other runs: a ceiling, not a target (docs/testing.md).
    test.setTimeout(360_000);
    const context = await contextAs(browser, "admin", { colorScheme });
    const page = await context.newPage();
    const failures: string[] = [];
    for (const path of await everyConsolePage("?page_size=25")) {
      await page.goto(path);
      await expect(page.locator("html")).toHaveClass(new RegExp(colorScheme));
      await page.screenshot({
        path: testInfo.outputPath(`${colorScheme}${path === "/" ? "-home" : path.replace(/[^a-z0-9]+/gi, "-")}.png`),
        fullPage: true,
      });
      const { violations } = await new AxeBuilder({ page }).analyze();
      for (const violation of violations.filter((candidate) => candidate.impact === "serious" || candidate.impact === "critical")) {
        failures.push(
          `${path}: ${violation.id} (${violation.impact}) ${violation.help}: ${violation.nodes
            .map((node) => node.target.join(" "))
            .slice(0, 3)
            .join(" | ")}`,
        );
      }
    }
    expect(failures).toEqual([]);
    await context.close();
  });
}
