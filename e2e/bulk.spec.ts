import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { bankGet, bankSend, contextAs, type BankListAnswer } from "./support/bank";
import { waitForHydration } from "./support/staff";

/**
 * Bulk actions (docs/console-actions.md, "Bulk actions") against the production build and the sandbox bank: select
 * network transfers on their list, export them as CSV, tag them with one userdata key, watch the progress, see each row's outcome, retry
 * the row the bank failed, and find the job again from its address after a reload.
 */

interface NetworkTransfer {
  id: string;
  userdata: Record<string, unknown> | null;
  version: string;
  cross_bank: boolean;
  balanced_at: string | null;
}

test("operations tags three transfers in bulk, one failed by the bank is retried, each ends tagged once", async ({ browser }, testInfo) => {
  test.setTimeout(120_000);
  // Sent transfers the lifecycle has finished with, in the list's order (the bank's: newest first), so none moves meanwhile.
  const listed = (await bankGet<BankListAnswer>("/network_transfer?status=sent&page_size=50")).data as unknown as NetworkTransfer[];
  const finished = listed.filter((transfer) => !(transfer.version === "v2" && transfer.cross_bank && transfer.balanced_at === null));
  const chosen = finished.slice(0, 3).map((transfer) => transfer.id);
  const failing = chosen[1]!;
  const ticket = `INC-${randomUUID().slice(0, 8)}`;
  const fault = await bankSend<{ id: string }>("POST", "/sandbox/faults", { match: `PATCH /network_transfer/${failing}`, status: 503, times: 1 });
  expect(fault.status).toBe(201);

  const context = await contextAs(browser, "operations");
  const page = await context.newPage();
  try {
    await page.goto("/network-transfers?status=sent");
    await waitForHydration(page);
    for (const id of chosen) await page.getByRole("checkbox", { name: `Select ${id}` }).check();
    const bar = page.getByRole("region", { name: "Selected rows" });
    await expect(bar).toContainText("3 selected");
    // Operations may change userdata: both userdata actions are offered, webhook and review actions are not.
    await expect(bar.getByRole("button", { name: "Remove userdata key" })).toBeVisible();
    await expect(bar.getByRole("button", { name: "Enable" })).toHaveCount(0);
    // The selected rows as CSV, in the order selected.
    const download = page.waitForEvent("download");
    await bar.getByRole("button", { name: "Export CSV" }).click();
    const csv = readFileSync((await (await download).path())!, "utf8");
    expect(csv.split("\n").filter((line) => chosen.some((id) => line.startsWith(id)))).toHaveLength(3);

    await bar.getByRole("button", { name: "Set userdata key" }).click();

    const dialog = page.getByTestId("confirm-dialog");
    await dialog.getByLabel("Userdata key").fill("ticket");
    await dialog.getByLabel("Value").fill(ticket);
    await expect(dialog.getByTestId("bulk-diff")).toContainText(`ticket: "${ticket}"`);
    await dialog.getByRole("button", { name: "Set userdata key on 3" }).click();

    const progress = page.getByTestId("bulk-progress");
    await expect(progress).toBeVisible();
    await expect(page).toHaveURL(/#bulk=[0-9a-f-]{36}$/);
    await expect(progress).toHaveAttribute("data-status", "done", { timeout: 30_000 });
    await expect(progress.getByRole("progressbar", { name: "Rows settled" })).toHaveAttribute("aria-valuenow", "3");
    const rows = progress.getByTestId("bulk-rows");
    await expect(rows.locator('tr[data-state="done"]')).toHaveCount(2);
    await expect(rows.locator('tr[data-state="failed"]')).toContainText(failing);
    await expect(rows.locator('tr[data-state="failed"]')).toContainText("503");

    const axe = await new AxeBuilder({ page }).analyze();
    expect(
      axe.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical").map((violation) => violation.id),
    ).toEqual([]);

    await progress.getByRole("button", { name: "Retry failed rows (1)" }).click();
    await expect(rows.locator('tr[data-state="done"]')).toHaveCount(3, { timeout: 30_000 });
    for (const id of chosen) expect((await bankGet<NetworkTransfer>(`/network_transfer/${id}`)).userdata).toMatchObject({ ticket });

    // The job is kept by the server and named in the address: a reload (or the same address in a new tab) shows it.
    await page.reload();
    await expect(page.getByTestId("bulk-progress")).toHaveAttribute("data-status", "done");
    await expect(page.getByTestId("bulk-counts")).toContainText("Done: 3");

    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      // The theme follows the browser's scheme: its class is on <html> before the screenshots.
      await expect(page.locator("html")).toHaveClass(new RegExp(colorScheme));
      for (const width of [390, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: testInfo.outputPath(`bulk-progress-${width}-${colorScheme}.png`), fullPage: true });
      }
    }
  } finally {
    await bankSend("DELETE", "/sandbox/faults");
    await context.close();
  }
});

test("a viewer asking for a bulk action is refused by the route (403)", async ({ browser }) => {
  const context = await contextAs(browser, "viewer");
  const page = await context.newPage();
  try {
    await page.goto("/network-transfers");
    const answer = await context.request.post("/api/bulk", {
      data: { action: "userdata.set", resource: "network_transfer", ids: ["nt_any"], key: "k", value: 1 },
      headers: { origin: new URL(page.url()).origin },
    });
    expect(answer.status()).toBe(403);
  } finally {
    await context.close();
  }
});
