import { expect, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { demoUsers } from "@/lib/auth/demo-users";
import type { Role } from "@/lib/permissions";

export function demoUser(role: Role) {
  const user = demoUsers.find((candidate) => candidate.role === role);
  if (!user) throw new Error(`no demo user for role ${role}`);
  return user;
}

/** Signs in through the real form and waits until the console has left the sign-in page. */
export async function signIn(page: Page, credentials: { email: string; password: string }, from?: string) {
  await page.goto(from ? `/sign-in?from=${encodeURIComponent(from)}` : "/sign-in");
  await page.getByLabel("Email").fill(credentials.email);
  await page.getByLabel("Password").fill(credentials.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  // A password check costs ~1 s of scrypt on an idle core (docs/benchmarks.md); a busy test machine needs more.
  await expect(page).not.toHaveURL(/\/sign-in/, { timeout: 20_000 });
}

/** A fresh browser context signed in as the demo user of `role`; its `request` carries the session cookie. */
export async function signedInContext(browser: Browser, role: Role): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, demoUser(role));
  return { context, page };
}

/**
 * Waits until the console page has hydrated (the providers' `console:hydrated` mark): before that a link is plain HTML
 * and a click loads the next page in full, without the client-side behaviour a test may be looking at.
 */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => performance.getEntriesByName("console:hydrated").length > 0);
}
