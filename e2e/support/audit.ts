import { expect, type Page } from "@playwright/test";

/** The columns of the audit log's table (components/audit/audit-table.tsx), in order. */
const columns = ["time", "actor", "environment", "action", "target", "outcome", "before", "after", "request"] as const;

export interface ExpectedAuditRow {
  action: string;
  target: string;
  outcome: "succeeded" | "failed";
  actor: string;
  role: string;
}

/**
 * Asserts that the newest rows of the audit log page currently shown are `expected`, in order, row by row: each row's
 * action, target, outcome and actor (email and role) in their own cells, not merely somewhere in the table.
 */
export async function expectNewestAuditRows(page: Page, expected: ExpectedAuditRow[]) {
  const rows = page.getByTestId("audit-table").locator("tbody tr");
  for (const [index, row] of expected.entries()) {
    const cells = rows.nth(index).locator("td");
    await expect(cells.nth(columns.indexOf("action"))).toHaveText(row.action);
    await expect(cells.nth(columns.indexOf("target"))).toHaveText(row.target);
    await expect(cells.nth(columns.indexOf("outcome"))).toHaveText(row.outcome);
    await expect(cells.nth(columns.indexOf("actor"))).toHaveText(`${row.actor} (${row.role})`);
  }
}
