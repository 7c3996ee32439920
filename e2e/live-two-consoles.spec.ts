import { expect, test } from "@playwright/test";
import { eventually } from "@/tests/support/webhook-receiver";
import { baseURL } from "../playwright.config";
import type { BankListAnswer } from "./support/bank";
import { pairLifecycleStepMs, startConsolePair, testPostgresUrl } from "./support/console-pair";
import { expectLiveUpdate, markPage, stillSamePage, waitUntilLive } from "./support/live";
import { demoUser, signIn } from "./support/staff";

/**
 * Several console instances on one PostgreSQL: a sandbox bank of their own and two console processes, one receiving the
 * bank's notifications and keeping the index, the other keeping none. What reaches the second one's browser came
 * through PostgreSQL (LISTEN/NOTIFY). Live pages on one console: live.spec.ts.
 */

test("two console processes on one PostgreSQL: changes received by one reach a browser on the other, an ACH transfer's move by the bank's lifecycle among them", async ({
  browser,
}, testInfo) => {
  test.skip(!testPostgresUrl, "needs TEST_DATABASE_URL (a PostgreSQL server), as CI gives it");
  test.setTimeout(300_000);
  const pair = await startConsolePair(testPostgresUrl!, Number(new URL(baseURL).port) + 1);
  const authorization = `Basic ${Buffer.from("sandbox-demo-key:sandbox-demo-secret-change-me").toString("base64")}`;
  const pairBank = async <T>(method: string, path: string, body?: unknown) => {
    const response = await fetch(`${pair.sandboxUrl}${path}`, {
      method,
      headers: { authorization, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.ok).toBe(true);
    return (await response.json()) as T;
  };
  const context = await browser.newContext({ baseURL: pair.watching });
  try {
    // The receiving console has subscribed at its bank: every one of its webhooks points at it, none at the other.
    await eventually(async () => {
      const hooks = (await pairBank<{ data: Array<{ url: string }> }>("GET", "/webhook?page_size=100")).data;
      return hooks.filter((hook) => hook.url.startsWith(`${pair.receiving}/api/bank-events/`)).length >= 20;
    }, 60_000);
    const page = await context.newPage();
    await signIn(page, demoUser("viewer"));

    // The bank's lifecycle moved its pending ACH transfers to processing as it started: the one it moved last moves on
    // (returned, for an amount ending in .13-.16) one step after that, while the page below is open.
    const processing = (await pairBank<BankListAnswer>("GET", "/ach?status=processing&page_size=100")).data.sort((a, b) =>
      String(b.updated_at).localeCompare(String(a.updated_at)),
    );
    const ach = processing.find((transfer) => /\.1[3-6]$/.test(String(transfer.amount))) ?? processing[0];
    expect(ach, "an ACH transfer the lifecycle has yet to finish").toBeDefined();
    const movesAt = Date.parse(String(ach!.updated_at)) + pairLifecycleStepMs;
    expect(movesAt - Date.now(), "time left before the lifecycle moves it (the pair took too long to start)").toBeGreaterThan(3_000);
    const finalStatus = /\.1[3-6]$/.test(String(ach!.amount)) ? "returned" : "sent";
    await expect(async () => {
      await page.goto(`/ach/${ach!.id}`);
      await expect(page.locator('[data-testid="timeline-version"][data-status="processing"]')).toHaveCount(1, { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await waitUntilLive(page);
    await markPage(page);
    await expect(page.locator(`#detail-title [data-status="${finalStatus}"]`)).toBeVisible({ timeout: pairLifecycleStepMs + 30_000 });
    const moved = page.locator(`[data-testid="timeline-version"][data-status="${finalStatus}"]`);
    await expect(moved).toHaveAttribute("data-source", "event", { timeout: 30_000 });
    await expect(moved.locator('[data-testid="timeline-change"][data-path="status"]')).toHaveText(
      `status: Processing → ${finalStatus === "returned" ? "Returned" : "Sent"}`,
    );
    if (finalStatus === "returned") await expect(moved.locator('[data-testid="timeline-change"][data-path="error"]')).toContainText(/→ R\d\d /);
    await page.screenshot({ path: testInfo.outputPath(`ach-moved-by-lifecycle-${finalStatus}.png`), fullPage: true });
    await stillSamePage(page);

    // A change made by another system (a PATCH at the bank) reaches the same page's browser the same way. A sent
    // transfer the lifecycle has finished with: its own next move could not be told from the PATCH.
    const transfer = (await pairBank<BankListAnswer>("GET", "/network_transfer?status=sent&page_size=20")).data.find(
      (candidate) => !(candidate.version === "v2" && candidate.cross_bank === true && candidate.balanced_at === null),
    )!;
    await page.goto(`/network-transfers/${transfer.id}`);
    await expectLiveUpdate(page, transfer.id, (body) => pairBank("PATCH", `/network_transfer/${transfer.id}`, body));
  } finally {
    await context.close();
    await pair.stop();
  }
});
