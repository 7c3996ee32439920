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
