import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { baseURL } from "../playwright.config";
import { bankGet, contextAs, type BankListAnswer } from "./support/bank";

/**
 * The timeline on a detail page, against the production build, the sandbox bank and the index the console fills at
 * start: a network transfer shows the version the backfill found; a change made through the console then shows, after
 * a reload, as a new version with the changed field (as the role may read it), the bank's notification and the audit record.
 */

/** Reloads until `locator` has one match: the index takes the bank's notification a moment after the change. */
async function reloadUntilShown(
  page: Page,
  testId: string,
  attributes: Record<string, string>,
  options: { timeout?: number; hasText?: string } = {},
) {
  const selector = `[data-testid="${testId}"]${Object.entries(attributes)
    .map(([name, value]) => `[data-${name}="${value}"]`)
    .join("")}`;
  const locator = page.locator(selector).filter(options.hasText ? { hasText: options.hasText } : {});
  await expect(async () => {
    await page.reload();
    await expect(locator).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: options.timeout ?? 30_000 });
  return locator;
}

test("a network transfer's timeline: the backfilled version, then a console edit's new version, bank event and audit record", async ({
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  // A transfer the sandbox's lifecycle leaves alone: sent, and not a v2 cross-bank one still waiting for its balancing wire.
  const settled = (await bankGet<BankListAnswer>("/network_transfer?status=sent&page_size=20")).data.filter(
    (transfer) => !(transfer.version === "v2" && transfer.cross_bank === true && transfer.balanced_at === null),
  );
  const transfer = settled[3]!; // not one the other specs edit
  const ticket = `TL-${randomUUID().slice(0, 8)}`;
  const operations = await contextAs(browser, "operations");
  const page = await operations.newPage();
  try {
    await page.goto(`/network-transfers/${transfer.id}`);
    // Run alone, this spec starts while the console's backfill is still walking the lists.
    const first = await reloadUntilShown(page, "timeline-version", { version: "1", source: "backfill" }, { timeout: 90_000 });
    await expect(first).toContainText("First seen");
    await expect(first.locator('[data-status="sent"]')).toBeVisible();
    // The one date style (lib/format/time.ts): "Nov 17, 14:02" in the staff member's zone, the exact time in the element.
    await expect(page.getByTestId("timeline-watched")).toContainText(
      /Watched since [A-Z][a-z]{2} \d{1,2}(, \d{4})?, \d\d:\d\d, first seen by the backfill/,
    );
    await expect(page.getByTestId("timeline-watched").locator("time")).toHaveAttribute("datetime", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
    const latest = Number(await page.getByTestId("timeline-version").first().getAttribute("data-version"));

    const patched = await operations.request.patch(`${baseURL}/api/bank/network_transfer/${encodeURIComponent(transfer.id)}`, {
      data: { userdata: { ticket } },
      headers: { origin: baseURL },
    });
    expect(patched.status()).toBe(200);

    const edited = String(latest + 1);
    const changed = await reloadUntilShown(page, "timeline-version", { version: edited, source: "event" });
    // Operations may edit userdata, so it reads userdata: the change shows what was written (a viewer's is masked).
    await expect(changed.locator('[data-testid="timeline-change"][data-path^="userdata"]').filter({ hasText: ticket })).toHaveCount(1);
    // The inbox row is marked processed just after the version is kept: a reload in between shows it "being processed".
    // Other specs may have changed this transfer before: the event that found this very version.
    const event = await reloadUntilShown(
      page,
      "timeline-event",
      { event: "network_transfer.update", outcome: "changed" },
      { hasText: `found a new state (v${edited})` },
    );
    await expect(event).toBeVisible();
    // Newest first: this edit's record (another spec may have edited the transfer through the console before).
    const audit = page.locator('[data-testid="timeline-audit"][data-action="network_transfer.userdata.update"]').first();
    await expect(audit).toContainText("operations@demo.bank");
    await expect(audit).toContainText("succeeded");
    await expect(audit.getByTestId("timeline-changes")).toHaveCount(0);
    await expect(audit).not.toContainText(ticket);
    // Newest first: what the index found, the notification that led to it, the action that caused it, the backfill.
    const order = await page
      .locator('[data-testid="timeline-entries"] > li')
      .evaluateAll((items) => items.map((item) => `${item.getAttribute("data-testid")} ${item.getAttribute("data-version") ?? item.textContent}`));
    const at = (pattern: RegExp) => order.findIndex((entry) => pattern.test(entry));
    const [versionAt, eventAt, auditAt] = [
      new RegExp(`^timeline-version ${edited}$`),
      new RegExp(`^timeline-event .*\\(v${edited}\\)`),
      /^timeline-audit .*userdata\.update/,
    ].map(at);
    expect(versionAt).toBeGreaterThanOrEqual(0);
    expect(eventAt).toBeGreaterThan(versionAt!);
    expect(auditAt).toBeGreaterThan(eventAt!);
    expect(order.at(-1)).toBe("timeline-version 1");
  } finally {
    await operations.close();
  }

  // Compliance may read the audit log: the same record with its before and after, as /audit shows it.
  for (const colorScheme of ["light", "dark"] as const) {
    const compliance = await contextAs(browser, "compliance", { colorScheme });
    try {
      for (const width of [390, 1440]) {
        const page = await compliance.newPage();
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`/network-transfers/${transfer.id}`);
        const audit = page.locator('[data-testid="timeline-audit"][data-action="network_transfer.userdata.update"]').first();
        await expect(audit.getByTestId("timeline-changes")).toContainText(ticket);
        await page.getByTestId("timeline").scrollIntoViewIfNeeded();
        await page.screenshot({ path: testInfo.outputPath(`timeline-${width}-${colorScheme}.png`), fullPage: true });
        await page.getByTestId("timeline").screenshot({ path: testInfo.outputPath(`timeline-only-${width}-${colorScheme}.png`) });
        await page.close();
      }
    } finally {
      await compliance.close();
    }
  }
});
