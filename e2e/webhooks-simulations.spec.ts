import { expect, test, type Page } from "@playwright/test";
import { startReceiver, eventually } from "@/tests/support/webhook-receiver";
import { bankGet, bankSend, contextAs, type BankListAnswer } from "./support/bank";
import { expectNewestAuditRows } from "./support/audit";

/**
 * Webhooks and simulations against the production build and the sandbox bank: a webhook's url, event
 * and Basic credentials edited through the confirm dialog (reaching the bank, audited), deliveries narrowed to the
 * failed ones with each attempt's payload and the receiver's reply (the reply for roles that manage webhooks only),
 * the chart's buckets, and the wallet provisioning simulation on a card's page (its token, the card's and the token's
 * History, the simulations page's runs from the audit trail). Screenshots at 390 and 1440 px, light and dark.
 */

interface Webhook {
  id: string;
  status: string;
  url: string;
  event: string;
  basic_user: string | null;
}
interface Card {
  id: string;
  status: string;
}

const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString("base64")}`;

/** A provisioning simulation made at the bank directly (as another system would), so the webhook has something to deliver. */
const simulateAtBank = async (cardId: string) =>
  expect((await bankSend("POST", "/simulation", { type: "digital_wallet_token.provisioning", simulation: { card_id: cardId } })).status).toBe(202);

async function shoot(page: Page, name: string) {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
  }
}

test("a webhook's url, event and Basic auth are edited in the confirm dialog, reach the bank and are audited", async ({ browser }) => {
  test.setTimeout(120_000);
  const receiver = await startReceiver();
  const card = (await bankGet<BankListAnswer>("/card?page_size=1&status=active")).data[0] as unknown as Card;
  const hook = (
    await bankSend<Webhook>("POST", "/webhook", { url: receiver.url("/before"), event: "card.update", basic_user: "old-user", basic_secret: "old" })
  ).body;
  const context = await contextAs(browser, "operations");
  const page = await context.newPage();
  try {
    await page.goto(`/webhooks/${hook.id}`);
    await page.getByTestId("edit-webhook").click();
    const dialog = page.getByTestId("confirm-dialog");
    await expect(dialog.getByTestId("edit-webhook-summary")).toHaveText("Nothing changed yet.");
    await dialog.getByRole("button", { name: "Save changes" }).click();
    await expect(dialog.getByTestId("edit-webhook-problem")).toHaveText("Nothing is changed yet.");

    // An address the bank refuses (a private network): its message is shown in the dialog, and nothing changes.
    await dialog.getByLabel("URL").fill("http://10.0.0.7/hooks");
    await dialog.getByRole("button", { name: "Save changes" }).click();
    await expect(dialog.getByTestId("action-error")).toContainText("10.0.0.7");
    expect((await bankGet<Webhook>(`/webhook/${hook.id}`)).url).toBe(receiver.url("/before"));

    await dialog.getByLabel("URL").fill(receiver.url("/after"));
    await dialog.getByLabel("Event").selectOption("digital_wallet_token.create");
    await dialog.getByLabel("Basic auth user").fill("edited-user");
    await dialog.getByLabel("Set a new one").check();
    await dialog.getByLabel("New secret").fill("edited-secret-e2e");
    const summary = dialog.getByTestId("edit-webhook-summary");
    await expect(summary).toContainText(`URL ${receiver.url("/before")} → ${receiver.url("/after")}`);
    await expect(summary).toContainText("Event card.update → digital_wallet_token.create");
    await expect(summary).toContainText("Basic auth user old-user → edited-user");
    await expect(summary).toContainText("Basic auth secret replaced");
    await shoot(page, "webhook-edit-dialog");
    await dialog.getByRole("button", { name: "Save changes" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId("webhook-edit-done")).toContainText(`digital_wallet_token.create to ${receiver.url("/after")}`);
    expect(await bankGet<Webhook>(`/webhook/${hook.id}`)).toMatchObject({
      url: receiver.url("/after"),
      event: "digital_wallet_token.create",
      basic_user: "edited-user",
      basic_secret: null,
    });
    expect(await page.content()).not.toContain("edited-secret-e2e");

    // The bank now notifies the new address, of the new event, with the new credentials.
    await simulateAtBank(card.id);
    const notification = await eventually(() => receiver.at("/after")[0], 30_000);
    expect(notification.body.event).toBe("digital_wallet_token.create");
    expect(notification.headers.authorization).toBe(basic("edited-user", "edited-secret-e2e"));
    expect(receiver.at("/before")).toEqual([]);

    await expect(page.getByTestId("timeline-audit").filter({ hasText: "webhook.update" })).toHaveCount(2);
    const admin = await contextAs(browser, "admin");
    try {
      const auditPage = await admin.newPage();
      await auditPage.goto(`/audit?target=${hook.id}&action=webhook.update`);
      await expectNewestAuditRows(auditPage, [
        { action: "webhook.update", target: hook.id, outcome: "succeeded", actor: "operations@demo.bank", role: "operations" },
      ]);
      // Before it, the bank's refusal, recorded as failed with the bank's reason (the outcome cell carries both).
      const refused = auditPage.getByTestId("audit-table").locator("tbody tr").nth(1);
      await expect(refused.getByTestId("audit-action")).toHaveText("webhook.update");
      await expect(refused.getByTestId("audit-outcome")).toContainText("failed");
      await expect(refused).toContainText("10.0.0.7");
      const table = (await auditPage.getByTestId("audit-table").textContent()) ?? "";
      expect(table).toContain("edited-user");
      expect(table).not.toContain("edited-secret-e2e");
    } finally {
      await admin.close();
    }
  } finally {
    await context.close();
    await receiver.close();
    await bankSend("DELETE", `/webhook/${hook.id}`);
  }
});

test("deliveries narrow to the failed ones; a failed attempt's payload shows, its reply only to roles that manage webhooks", async ({ browser }) => {
  test.setTimeout(120_000);
  const receiver = await startReceiver();
  receiver.respondWith((_path, index) => (index === 0 ? { status: 500, body: "upstream said no (e2e)" } : { status: 200, body: '{"ok":true}' }));
  const card = (await bankGet<BankListAnswer>("/card?page_size=1&status=active")).data[0] as unknown as Card;
  const hook = (await bankSend<Webhook>("POST", "/webhook", { url: receiver.url("/deliveries"), event: "digital_wallet_token.create" })).body;
  await simulateAtBank(card.id);
  await eventually(async () => {
    const attempts = await bankGet<{ data: Array<{ succeeded: boolean }> }>(`/webhook/${hook.id}/deliveries`);
    return attempts.data.some((attempt) => attempt.succeeded) && attempts;
  }, 30_000);
  const tokenId = receiver.at("/deliveries")[0]!.body.id;
  const operations = await contextAs(browser, "operations");
  const viewer = await contextAs(browser, "viewer");
  try {
    const page = await operations.newPage();
    await page.goto(`/webhooks/${hook.id}`);
    // One notification, tried twice: one row (attempts grouped under their notification).
    await expect(page.getByTestId("delivery-row")).toHaveCount(1);
    await expect(page.getByTestId("notification-attempt-count")).toHaveText("2 attempts");
    await expect(page.getByTestId("delivery-summary")).toContainText("1 delivered · 1 failed");
    await expect(page.getByTestId("delivery-timeline")).toHaveAttribute("data-bucket", "1 s");
    await page.getByTestId("delivery-outcome").getByText("Failed only").click();
    await expect(page.getByTestId("delivery-row")).toHaveCount(1);
    const failed = page.getByTestId("delivery-row").first();
    await expect(failed).toHaveAttribute("data-succeeded", "false");
    await failed.getByTestId("delivery-toggle").click();
    const details = page.getByTestId("delivery-details");
    await expect(details.getByTestId("delivery-request-body")).toContainText('"event": "digital_wallet_token.create"');
    await expect(details.getByTestId("delivery-request-body")).toContainText(`"id": "${tokenId}"`);
    await expect(details.getByTestId("delivery-response-body")).toHaveText("upstream said no (e2e)");
    await shoot(page, "webhook-deliveries-failed");

    const viewerPage = await viewer.newPage();
    await viewerPage.goto(`/webhooks/${hook.id}`);
    // The rows are in the first HTML; the toggle works once the page is hydrated, so the click is repeated until it has.
    await expect(async () => {
      await viewerPage.getByTestId("delivery-outcome").getByText("Failed only").click();
      await expect(viewerPage.getByTestId("delivery-row")).toHaveCount(1, { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await viewerPage.getByTestId("delivery-toggle").click();
    await expect(viewerPage.getByTestId("delivery-request-body")).toContainText(`"id": "${tokenId}"`);
    await expect(viewerPage.getByTestId("delivery-reply-hidden")).toBeVisible();
    expect(await viewerPage.content()).not.toContain("upstream said no");
    await expect(viewerPage.getByTestId("edit-webhook")).toHaveCount(0);
  } finally {
    await operations.close();
    await viewer.close();
    await receiver.close();
    await bankSend("DELETE", `/webhook/${hook.id}`);
  }
});

test("a card page's simulation makes its token, shows in the card's and the token's History, and stays in the runs list", async ({ browser }) => {
  test.setTimeout(120_000);
  const card = (await bankGet<BankListAnswer>("/card?page_size=5&status=active")).data.at(-1) as unknown as Card;
  // The demo seed has a card in every status (sandbox/seed/parties.ts).
  const canceled = (await bankGet<BankListAnswer>("/card?page_size=1&status=canceled")).data[0] as unknown as Card;
  const context = await contextAs(browser, "operations");
  const page = await context.newPage();
  try {
    await page.goto(`/cards/${card.id}`);
    const panel = page.getByTestId("card-simulation");
    await panel.getByLabel("Wallet provider").selectOption("GOOGLE_PAY");
    await panel.getByLabel("Fulfillment status").selectOption("decision_green");
    await panel.getByRole("button", { name: "Simulate wallet provisioning" }).click();
    const run = panel.getByTestId("simulation-run");
    await expect(run).toHaveAttribute("data-state", "found", { timeout: 30_000 });
    await expect(run).toContainText("Google Pay");
    await expect(run.getByTestId("simulation-token-status")).toHaveText("approved");
    const tokenId = (await run.getByTestId("simulation-token").textContent())!.trim();
    expect(await bankGet(`/digital_wallet_token/${tokenId}`)).toMatchObject({
      card_id: card.id,
      fulfillment_status: "decision_green",
      token_requestor_name: "GOOGLE_PAY",
    });
    await expect(page.getByTestId("timeline-audit").filter({ hasText: "simulation.run" })).toHaveCount(1);
    await shoot(page, "card-simulation");

    // The token's History names the run once the index has the token (its digital_wallet_token.create event).
    await page.goto(`/wallet-tokens/${tokenId}`);
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId("timeline-audit").filter({ hasText: "simulation.run" })).toHaveCount(1, { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await shoot(page, "wallet-token-history");

    // The runs list is read from the audit trail: after leaving the page it still has this run and its token.
    await page.goto("/simulations");
    const row = page.locator(`[data-testid="simulation-run-row"][data-card="${card.id}"]`).first();
    await expect(row.getByTestId("run-token")).toHaveText(tokenId);
    await expect(row).toContainText("Google Pay");
    await expect(row).toContainText("operations@demo.bank");
    await shoot(page, "simulations-runs");

    // A canceled card is not offered the simulation, on its page or in the simulations page's picker.
    await page.goto(`/cards/${canceled.id}`);
    await expect(page.getByTestId("resource-detail")).toBeVisible();
    await expect(page.getByTestId("card-token-panel")).toBeVisible();
    await expect(page.getByTestId("card-simulation")).toHaveCount(0);
    await page.goto("/simulations");
    await page.getByLabel("Search cards").fill(canceled.id);
    await expect(page.getByTestId("card-picker").locator("option")).toHaveCount(0);
  } finally {
    await context.close();
  }
});

for (const colorScheme of ["light", "dark"] as const) {
  test(`screenshots of the webhook and card pages in the ${colorScheme} theme`, async ({ browser }) => {
    const card = (await bankGet<BankListAnswer>("/card?page_size=1&status=active")).data[0] as unknown as Card;
    const hook = (await bankSend<Webhook>("POST", "/webhook", { url: "http://127.0.0.1:9/never-answers", event: "fednow.create" })).body;
    const context = await contextAs(browser, "operations", { colorScheme });
    const page = await context.newPage();
    try {
      for (const [name, path, parts] of [
        ["webhook", `/webhooks/${hook.id}`, ["webhook-deliveries"]],
        ["card", `/cards/${card.id}`, ["card-simulation", "card-token-panel"]],
        ["simulations", "/simulations", ["provisioning-form"]],
      ] as const) {
        await page.goto(path);
        // The card's simulation form loads after the page (next/dynamic): on a loaded machine that takes seconds.
        for (const part of parts) await expect(page.getByTestId(part)).toBeVisible({ timeout: 20_000 });
        for (const width of [390, 1440]) {
          await page.setViewportSize({ width, height: 900 });
          await page.screenshot({ path: test.info().outputPath(`${name}-${colorScheme}-${width}.png`), fullPage: true });
          // Nothing in these panels spills out of them (tables scroll inside their own box); the page's frame is the shell's.
          for (const part of parts) {
            const spill = await page.getByTestId(part).evaluate((element) => element.scrollWidth - element.clientWidth);
            expect([part, width, spill]).toEqual([part, width, 0]);
          }
        }
      }
    } finally {
      await context.close();
      await bankSend("DELETE", `/webhook/${hook.id}`);
    }
  });
}
