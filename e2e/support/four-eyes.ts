import { randomUUID } from "node:crypto";
import { expect, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { demoUsers } from "@/lib/auth/demo-users";
import type { Role } from "@/lib/permissions";
import { baseURL } from "../../playwright.config";
import { signIn } from "./staff";

/** The second demo admin's signed-in state, saved once per spec file like contextAs's (signing in is the slow part). */
let secondAdminState: Awaited<ReturnType<BrowserContext["storageState"]>> | undefined;

/** Approves change request `id` as the second demo admin: an admin the first demo admin did not create. */
async function approveAsSecondAdmin(browser: Browser, id: number) {
  if (!secondAdminState) {
    const signingIn = await browser.newContext();
    await signIn(
      await signingIn.newPage(),
      demoUsers.find((user) => user.email === "second.admin@demo.bank")!,
    );
    secondAdminState = await signingIn.storageState();
    await signingIn.close();
  }
  const context = await browser.newContext({ storageState: secondAdminState });
  const approved = await context.request.post(`/api/approvals/${id}/approve`, { data: {}, headers: { origin: baseURL } });
  expect(approved.status(), await approved.text()).toBe(200);
  await context.close();
}

/**
 * Waits for the Staff form's answer to creating `email` on `page`: made at once, or (an account that may approve,
 * while production's four-eyes holds) held, then approved by the second demo admin and the page reloaded.
 */
export async function expectStaffCreated(browser: Browser, page: Page, email: string) {
  const result = page.getByTestId("staff-form-result");
  await expect(result).toHaveText(/^(Created: |Awaiting approval)/);
  const text = (await result.textContent()) ?? "";
  const held = /^Awaiting approval.*request (\d+)/.exec(text);
  if (!held) return expect(result).toHaveText(`Created: ${email}`);
  await approveAsSecondAdmin(browser, Number(held[1]));
  await page.reload();
}

/** A staff user of `role`, created by the admin in Staff, signed in in a browser context of their own. */
export async function newStaffUser(browser: Browser, admin: BrowserContext, role: Role) {
  const email = `${role}-${randomUUID().slice(0, 8)}@demo.bank`;
  const password = `a temporary ${role} password`;
  const page = await admin.newPage();
  await page.goto("/settings/staff");
  const form = page.getByRole("form", { name: "New staff user" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Name").fill(`Second ${role}`);
  await form.getByLabel("Role").selectOption(role);
  await form.getByLabel("Password").fill(password);
  await form.getByRole("button", { name: "Create staff user" }).click();
  await expectStaffCreated(browser, page, email);
  await page.close();
  const context = await browser.newContext();
  await signIn(await context.newPage(), { email, password });
  return { context, email };
}

/** Four-eyes on or off for an environment through the API, as the signed-in `admin`; the answer as it came. */
export const putFourEyes = (admin: BrowserContext, environment: string, required: boolean) =>
  admin.request.put("/api/approvals/settings", { data: { environment, required }, headers: { origin: baseURL } });

/**
 * Four-eyes off in production, for a test about one admin's direct change there: switching it off is itself held for
 * a second admin (docs/approvals.md), so `admin` asks and the second demo admin approves (an admin `admin` created
 * could not).
 */
export async function productionFourEyesOff(browser: Browser, admin: BrowserContext) {
  const asked = await putFourEyes(admin, "production", false);
  if (asked.status() === 200) return;
  expect(asked.status(), await asked.text()).toBe(202);
  const { approval } = (await asked.json()) as { approval: { id: number } };
  await approveAsSecondAdmin(browser, approval.id);
}
