import { randomUUID } from "node:crypto";
import { expect, type Browser, type BrowserContext } from "@playwright/test";
import type { Role } from "@/lib/permissions";
import { baseURL } from "../../playwright.config";
import { signIn } from "./staff";

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
  await expect(page.getByTestId("staff-form-result")).toHaveText(`Created: ${email}`);
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
 * a second admin (docs/approvals.md), so `admin` asks and a second admin, created for it, approves.
 */
export async function productionFourEyesOff(browser: Browser, admin: BrowserContext) {
  const asked = await putFourEyes(admin, "production", false);
  if (asked.status() === 200) return;
  expect(asked.status(), await asked.text()).toBe(202);
  const { approval } = (await asked.json()) as { approval: { id: number } };
  const second = await newStaffUser(browser, admin, "admin");
  const approved = await second.context.request.post(`/api/approvals/${approval.id}/approve`, { data: {}, headers: { origin: baseURL } });
  expect(approved.status(), await approved.text()).toBe(200);
  await second.context.close();
}
