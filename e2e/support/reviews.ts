import { expect, type BrowserContext, type Page } from "@playwright/test";

/** The review actions in the audit trail by `email`, as the admin's export lists them. */
export async function reviewAuditLines(admin: BrowserContext, email: string): Promise<string[]> {
  const csv = await (await admin.request.get(`/api/audit/export?actor=${encodeURIComponent(email)}`)).text();
  return csv.split("\r\n").filter((line) => line.includes(",review."));
}

/** The oldest unassigned, undecided person application in the queue, assigned to the reviewer signed in on `page` (`email`). */
export async function takeFromQueue(page: Page, email: string): Promise<string> {
  await page.goto("/reviews?assignee=unassigned&kind=person_application");
  const row = page.getByTestId("queue-row").first();
  await expect(row).toBeVisible();
  const id = (await row.getAttribute("data-id"))!;
  await row.getByRole("button", { name: "Assign to me" }).click();
  // Assigned, it leaves the unassigned filter and is in the reviewer's own.
  await expect(page.locator(`[data-testid="queue-row"][data-id="${id}"]`)).toHaveCount(0);
  await page.goto("/reviews?assignee=mine");
  await expect(page.locator(`[data-testid="queue-row"][data-id="${id}"]`)).toContainText(email);
  return id;
}

/**
 * Runs a bulk action of the queue's bar on the rows selected on `page` (assigning to `reviewer`'s email, if given) and
 * waits until its job, a new one, is done.
 */
export async function runQueueBulk(page: Page, action: "Assign to a reviewer" | "Unassign", reviewer?: string): Promise<void> {
  const shownBefore = new URL(page.url()).hash;
  await page.getByRole("region", { name: "Selected rows" }).getByRole("button", { name: action, exact: true }).click();
  const dialog = page.getByTestId("confirm-dialog");
  if (reviewer) await dialog.getByLabel("Reviewer's email").fill(reviewer);
  await dialog.getByRole("button", { name: new RegExp(`^${action} on \\d+$`) }).click();
  // The new job is named in the URL's fragment; the progress of an earlier one may still read "done" until then.
  await expect.poll(() => new URL(page.url()).hash).toMatch(/^#bulk=/);
  await expect.poll(() => new URL(page.url()).hash).not.toBe(shownBefore);
  await expect(page.getByTestId("bulk-progress")).toHaveAttribute("data-status", "done", { timeout: 30_000 });
}
