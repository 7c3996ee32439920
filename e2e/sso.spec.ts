import { expect, test, type Page } from "@playwright/test";
import { oidc } from "../playwright.config";
import { startOidcProvider, type OidcAccounts } from "./support/oidc-provider";
import { demoUser } from "./support/staff";

const accounts: OidcAccounts = {
  "ops-sub": { email: demoUser("operations").email, email_verified: true },
  "viewer-unverified": { email: demoUser("viewer").email, email_verified: false },
  "compliance-owner": { email: demoUser("compliance").email, email_verified: true },
  "compliance-impostor": { email: demoUser("compliance").email, email_verified: true },
};

let provider: Awaited<ReturnType<typeof startOidcProvider>>;
test.beforeAll(async () => {
  provider = await startOidcProvider(accounts);
});
test.afterAll(async () => {
  await provider?.close();
});

/** Signs in through the provider's own login and consent pages as the account `login`. */
async function signInWithSso(page: Page, login: string) {
  await page.goto(`${oidc.consoleOrigin}/sign-in`);
  await page.getByRole("button", { name: `Sign in with ${oidc.name}` }).click();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
}

const refusal = "Your single sign-on account is not a console staff user, or it is locked. Ask an admin.";

test.describe("single sign-on against a real OpenID Connect provider", () => {
  test("a verified email of a staff user signs in, under the role the console gives", async ({ page }) => {
    await signInWithSso(page, "ops-sub");
    await expect(page.getByTestId("current-user")).toContainText("(operations)");
  });

  test("an unverified email is refused, even one of a staff user", async ({ page }) => {
    await signInWithSso(page, "viewer-unverified");
    await expect(page).toHaveURL(/\/sign-in\?error=AccessDenied/);
    await expect(page.getByText(refusal)).toBeVisible();
  });

  test("once bound to a provider account, a staff user cannot be taken over by another one showing the same email", async ({ browser }) => {
    const owner = await browser.newContext();
    const ownerPage = await owner.newPage();
    await signInWithSso(ownerPage, "compliance-owner");
    await expect(ownerPage.getByTestId("current-user")).toContainText("(compliance)");
    await owner.close();

    const impostor = await browser.newContext();
    const impostorPage = await impostor.newPage();
    await signInWithSso(impostorPage, "compliance-impostor");
    await expect(impostorPage.getByText(refusal)).toBeVisible();
    await impostor.close();
  });
});
