import { randomBytes } from "node:crypto";
import { expect, type Page } from "@playwright/test";

// The steps of the live-page specs (live.spec.ts, live-two-consoles.spec.ts): a page that updates by itself, and proof
// that it was not reloaded.

/** A value no other run wrote, to tell this change from any other. */
export const marker = () => `live-${randomBytes(4).toString("hex")}`;

/** Marks the page, so a later check tells a live update from a reload (which would drop the mark). */
export async function markPage(page: Page) {
  await page.evaluate(() => ((window as { notReloaded?: boolean }).notReloaded = true));
}
export async function stillSamePage(page: Page) {
  expect(await page.evaluate(() => (window as { notReloaded?: boolean }).notReloaded)).toBe(true);
}

export async function waitUntilLive(page: Page) {
  const indicator = page.getByTestId("live-indicator");
  await expect(indicator).toHaveAttribute("data-status", "connected", { timeout: 30_000 });
  await expect(indicator).toHaveText("Live updates: Live");
}

/**
 * Changes a transfer's userdata at `bank` and expects its detail page to show the new `updated_at` (userdata itself is
 * masked for every role, lib/pii.ts), with no reload.
 */
export async function expectLiveUpdate(page: Page, transferId: string, patch: (body: unknown) => Promise<{ updated_at: string }>) {
  await waitUntilLive(page);
  await markPage(page);
  // updated_at has one-second resolution: the change must land in a later second to be seen.
  await page.waitForTimeout(1_100);
  const { updated_at: updatedAt } = await patch({ userdata: { ticket: marker() } });
  await expect(page.locator(`[data-field="updated_at"] time`)).toHaveAttribute("datetime", updatedAt, { timeout: 30_000 });
  await expect(page.locator('[data-field="userdata"]')).toContainText("[masked]");
  await stillSamePage(page);
  expect(page.url()).toContain(transferId);
}
