import { expect, test } from "@playwright/test";
import { bankGet, bankSend, contextAs, type BankListAnswer } from "./support/bank";

/**
 * The console while its bank is down (docs/bank-outage.md): the sandbox bank answers every API request 503 (its fault
 * API, POST /sandbox/faults, which never applies to /sandbox/... itself). List and detail pages show the console's
 * index copy under the banner instead of an error, a userdata edit is refused with the paused-changes message, and once
 * the fault is removed the banner goes and a change made at the bank meanwhile shows.
 *
 * The console runs with the e2e config's defaults (playwright.config.ts sets none of these): BANK_RETRIES=2,
 * BANK_RETRY_BASE_MS=200, BANK_TIMEOUT_MS=10000, so each failing read takes about a second before the copy is shown;
 * BANK_BREAKER_FAILURES=5 and BANK_BREAKER_HALF_OPEN_SECONDS=15, so after the fault is removed the banner may stay up to
 * 15 s, until the breaker's probe reads the bank.
 */

const banner = /^The bank is not answering since .+\. Showing the console's copy as of .+; changes are paused\./;
const paused = "The bank is not answering; changes are paused. Nothing was sent or queued.";

test("the bank down: pages show the index's copy under a banner, an edit is refused, and the bank's answer returns", async ({ browser }) => {
  test.setTimeout(120_000);
  // A finished transfer: the sandbox's lifecycle leaves it as it is, so the index's copy is the bank's.
  const [transfer] = (await bankGet<BankListAnswer>("/network_transfer?status=sent&page_size=1")).data;
  const [webhook] = (await bankGet<BankListAnswer>("/webhook?page_size=1")).data;
  const context = await contextAs(browser, "operations");
  const page = await context.newPage();
  const name = `Outage Supply ${Date.now()}`;
  try {
    expect((await bankSend("POST", "/sandbox/faults", { match: "*", status: 503 })).status).toBe(201);

    await page.goto("/network-transfers");
    await expect(page.getByTestId("bank-outage-banner")).toHaveText(banner);
    await expect(page.locator("tbody tr").first()).toBeVisible();
    expect(await page.locator("tbody tr").count()).toBeGreaterThan(0);

    await page.goto(`/network-transfers/${transfer!.id}`);
    await expect(page.getByTestId("bank-outage-banner")).toHaveText(banner);
    await expect(page.getByTestId("resource-detail")).toHaveAttribute("data-id", transfer!.id);

    await page.getByRole("button", { name: "Edit userdata" }).click();
    await expect(page.getByTestId("action-error")).toContainText(paused);

    // What the index keeps no copy of is refused, never answered from the copy: an export, a webhook's deliveries.
    const exported = await page.request.get("/api/export/network_transfer?status=sent");
    expect([exported.status(), ((await exported.json()) as { error: { code: string } }).error.code]).toEqual([503, "bank_unavailable"]);
    expect(Number(exported.headers()["retry-after"])).toBeGreaterThanOrEqual(1);
    const deliveries = await page.request.get(`/api/bank/webhook/${webhook!.id}/deliveries?page_size=10`);
    expect([deliveries.status(), ((await deliveries.json()) as { error: { code: string } }).error.code]).toEqual([503, "bank_unavailable"]);

    // A change at the bank while the console cannot read it: a new counterparty (the control API is never faulted).
    const created = await bankSend<{ id: string }>("POST", "/sandbox/counterparty", { name });
    expect(created.status).toBe(201);

    expect((await bankSend("DELETE", "/sandbox/faults")).status).toBe(204);
    // Within the breaker's half-open wait the next read probes the bank; its answer ends the banner.
    await expect(async () => {
      await page.goto("/counterparties");
      await expect(page.getByTestId("bank-outage-banner")).toHaveCount(0);
      await expect(page.locator("tbody tr").filter({ hasText: name })).toHaveCount(1);
    }).toPass({ timeout: 45_000, intervals: [1_000, 2_000, 3_000] });
    await page.goto(`/counterparties/${created.body.id}`);
    await expect(page.getByTestId("resource-detail")).toHaveAttribute("data-id", created.body.id);
    await expect(page.getByTestId("bank-outage-banner")).toHaveCount(0);
  } finally {
    await bankSend("DELETE", "/sandbox/faults");
    await context.close();
  }
});
