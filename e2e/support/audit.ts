import { expect, type Page } from "@playwright/test";

export interface ExpectedAuditRow {
  action: string;
  target: string;
  outcome: "succeeded" | "failed";
  actor: string;
  role: string;
}

/**
 * Asserts that the newest rows of the audit log page currently shown are `expected`, in order, row by row: each row's
 * action, target, outcome and actor (email and role) in their own cells (components/audit/audit-table.tsx), not merely
 * somewhere in the table.
 */
export async function expectNewestAuditRows(page: Page, expected: ExpectedAuditRow[]) {
  const rows = page.getByTestId("audit-table").locator("tbody tr");
  for (const [index, row] of expected.entries()) {
    const cells = rows.nth(index);
    await expect(cells.getByTestId("audit-action")).toHaveText(row.action);
    await expect(cells.getByTestId("audit-target").locator("[data-id]")).toHaveText(row.target);
    await expect(cells.getByTestId("audit-outcome")).toHaveText(row.outcome);
    await expect(cells.getByTestId("audit-actor-email")).toHaveText(row.actor);
    await expect(cells.getByTestId("audit-actor-role")).toHaveText(row.role);
  }
}
