import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import type { NetworkTransfer } from "@/lib/contract";
import { bankGet, contextAs, type BankListAnswer } from "./support/bank";

// Userdata edited as keys and values, then read back by its writer after a reload (not [masked]).

/** A sent transfer the lifecycle has finished with (an unbalanced v2 cross-bank one still moves). */
async function finishedTransfer(skip: number): Promise<NetworkTransfer> {
  const page = await bankGet<BankListAnswer>("/network_transfer?status=sent&page_size=40");
  const finished = page.data.filter((transfer) => !(transfer.version === "v2" && transfer.cross_bank === true && transfer.balanced_at === null));
  return finished[finished.length - 1 - skip] as unknown as NetworkTransfer;
}

test("a key added and changed in the key/value editor is saved, and still readable to its writer after a reload", async ({ browser }, testInfo) => {
  test.setTimeout(90_000);
  const transfer = await finishedTransfer(0);
  const ticket = `OPS-${Date.now()}`;
  const context = await contextAs(browser, "operations");
  const page = await context.newPage();
  try {
    await page.goto(`/network-transfers/${transfer.id}`);
    await page.getByRole("button", { name: "Edit userdata" }).click();
    const form = page.getByTestId("userdata-key-values");
    await expect(form).toBeVisible();
    const rows = form.getByTestId("userdata-row");
    const before = await rows.count();

    await form.getByRole("button", { name: "Add a key" }).click();
    await form.getByRole("textbox", { name: `Key ${before + 1}`, exact: true }).fill("ticket_e2e");
    await form.getByRole("textbox", { name: "Value of ticket_e2e", exact: true }).fill("draft");
    await expect(page.getByTestId("userdata-diff")).toContainText("ticket_e2e");
    // The JSON beside follows the form.
    await expect(page.getByRole("textbox", { name: "Userdata (JSON object)" })).toContainText('"ticket_e2e": "draft"');
    await form.getByRole("textbox", { name: "Value of ticket_e2e", exact: true }).fill(ticket);
    await form.getByRole("button", { name: "Add a key" }).click();
    await form.getByRole("textbox", { name: `Key ${before + 2}`, exact: true }).fill("ticket_e2e");
    await expect(form.getByRole("alert")).toContainText("The key ticket_e2e is there twice.");
    await expect(page.getByRole("button", { name: "Save userdata" })).toBeDisabled();
    await form.getByRole("button", { name: "Remove ticket_e2e", exact: true }).last().click();
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.getByTestId("userdata-editor").screenshot({ path: testInfo.outputPath(`userdata-key-values-${width}.png`) });
    }
    const axe = await new AxeBuilder({ page }).include('[data-testid="userdata-editor"]').analyze();
    expect(
      axe.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical").map((violation) => violation.id),
    ).toEqual([]);

    await page.getByRole("button", { name: "Save userdata" }).click();
    await expect(page.getByTestId("userdata-saved")).toBeVisible();
    expect((await bankGet<NetworkTransfer>(`/network_transfer/${transfer.id}`)).userdata).toMatchObject({ ticket_e2e: ticket });

    await page.reload();
    await expect(page.getByTestId("resource-detail")).toContainText(ticket);
    // The timeline shows the writer the key that changed, once the index has the new version.
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId("timeline-change").filter({ hasText: "userdata.ticket_e2e" }).first()).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
  } finally {
    await context.close();
  }

  const viewer = await contextAs(browser, "viewer");
  const viewerPage = await viewer.newPage();
  try {
    await viewerPage.goto(`/network-transfers/${transfer.id}`);
    await expect(viewerPage.getByTestId("resource-detail")).toBeVisible();
    await expect(viewerPage.getByTestId("resource-detail")).not.toContainText(ticket);
  } finally {
    await viewer.close();
  }
});
