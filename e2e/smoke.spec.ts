import { expect, test } from "@playwright/test";
import { demoUser, signIn } from "./support/staff";

test("a staff member signs in and the console's home page loads in a real browser", async ({ page }, testInfo) => {
  await signIn(page, demoUser("admin"));
  await expect(page.getByRole("heading", { name: "Home", level: 1 })).toBeVisible();
  await expect(page.getByTestId("environment-banner")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("home.png"), fullPage: true });
});
