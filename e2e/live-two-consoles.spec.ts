import { expect, test } from "@playwright/test";
import { eventually } from "@/tests/support/webhook-receiver";
import { baseURL } from "../playwright.config";
import type { BankListAnswer } from "./support/bank";
import { startConsolePair, testPostgresUrl } from "./support/console-pair";
import { expectLiveUpdate, markPage, stillSamePage, waitUntilLive } from "./support/live";
import { demoUser, signIn } from "./support/staff";

/**
 * Several console instances on one PostgreSQL: a sandbox bank of their own and two console processes, one receiving the
 * bank's notifications and keeping the index, the other keeping none. What reaches the second one's browser came
 * through PostgreSQL (LISTEN/NOTIFY). Live pages on one console: live.spec.ts.
 */

test("two console processes on one PostgreSQL: changes received by one reach a browser on the other, an ACH transfer returned by the bank among them", async ({
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

    // A new ACH transfer (ach.create), returned with R01 while its page is open: two ach.update, pending → processing →
    // returned, as the lifecycle would step it (the pair's lifecycle is off, so nothing else moves it). Both steps are
    // written in one transaction, so the index may see the first event's fetch answer returned already.
    const ach = await pairBank<{ id: string }>("POST", "/sandbox/ach", { amount: "42.13" });
    await expect(async () => {
      await page.goto(`/ach/${ach.id}`);
      await expect(page.locator('[data-testid="timeline-version"][data-status="pending"]')).toHaveCount(1, { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await waitUntilLive(page);
    await markPage(page);
    await pairBank("POST", `/sandbox/ach/${ach.id}/transition`, { to: "returned", error: "R01" });
    await expect(page.locator('#detail-title [data-status="returned"]')).toBeVisible({ timeout: 30_000 });
    const moved = page.locator('[data-testid="timeline-version"][data-status="returned"]');
    await expect(moved).toHaveAttribute("data-source", "event", { timeout: 30_000 });
    await expect(moved.locator('[data-testid="timeline-change"][data-path="status"]')).toHaveText(/^status: (Pending|Processing) → Returned$/);
    await expect(moved.locator('[data-testid="timeline-change"][data-path="error"]')).toContainText(/→ R01 /);
    await page.screenshot({ path: testInfo.outputPath("ach-returned-live.png"), fullPage: true });
    await stillSamePage(page);

    // A change made by another system (a PATCH at the bank) reaches the same page's browser the same way.
    const transfer = (await pairBank<BankListAnswer>("GET", "/network_transfer?status=sent&page_size=1")).data[0]!;
    await page.goto(`/network-transfers/${transfer.id}`);
    await expectLiveUpdate(page, transfer.id, (body) => pairBank("PATCH", `/network_transfer/${transfer.id}`, body));
  } finally {
    await context.close();
    await pair.stop();
  }
});
