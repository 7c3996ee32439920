import { expect, test, type Page } from "@playwright/test";
import { startReceiver, eventually } from "@/tests/support/webhook-receiver";
import { baseURL } from "../playwright.config";
import { bankGet, bankSend, contextAs, type BankListAnswer } from "./support/bank";
import { typeUserdata } from "./support/userdata";

/**
 * The console's actions against the production build and the sandbox bank, per role: webhooks (create, error,
 * reset, deliveries, delete), the userdata editor (round trip, refusals, conflict), the wallet provisioning
 * simulation, the card UX toolkit token, and that viewer and compliance get none of them.
 */

interface Webhook {
  id: string;
  status: string;
  url: string;
}
interface NetworkTransfer {
  id: string;
  userdata: Record<string, unknown> | null;
  updated_at: string;
}

async function auditOf(page: Page, target: string): Promise<string> {
  await page.goto(`/audit?target=${encodeURIComponent(target)}`);
  return (await page.getByTestId("audit-table").textContent()) ?? "";
}

/**
 * Sent transfers the lifecycle has finished with: a v2 cross-bank one not yet balanced takes one more step (its
 * balancing wire, a step after its last change), which would move `updated_at` under a test that compares it.
 */
async function networkTransfers(count: number): Promise<NetworkTransfer[]> {
  const page = await bankGet<BankListAnswer>(`/network_transfer?status=sent&page_size=${count + 20}`);
  const finished = page.data.filter((transfer) => !(transfer.version === "v2" && transfer.cross_bank === true && transfer.balanced_at === null));
  return finished.slice(0, count) as unknown as NetworkTransfer[];
}

test("a webhook is created, fails into error, is reset and then delivers; delete asks and removes it", async ({ browser }) => {
  test.setTimeout(120_000);
  const receiver = await startReceiver();
  let healthy = false;
  receiver.respondWith(() => (healthy ? 200 : 500));
  const context = await contextAs(browser, "operations");
  const page = await context.newPage();
  try {
    await page.goto("/webhooks");
    await page.getByRole("button", { name: "New webhook" }).click();
    const form = page.getByTestId("create-webhook");
    await form.getByLabel("Event").selectOption("digital_wallet_token.create");
    await form.getByLabel("URL").fill("ftp://example.com/x");
    await form.getByRole("button", { name: "Create webhook" }).click();
    await expect(page.getByTestId("url-problem")).toContainText("http:// or https://");
    await form.getByLabel("URL").fill(receiver.url("/hook"));
    await form.getByLabel("Basic auth user (optional)").fill("hook-user");
    await form.getByLabel("Basic auth secret (optional)").fill("hook-secret-e2e");
    await form.getByRole("button", { name: "Create webhook" }).click();
    const created = page.getByTestId("webhook-created");
    await expect(created).toContainText("The bank created");
    await expect(form.getByLabel("Basic auth secret (optional)")).toHaveValue("");
    const id = (await created.getByRole("link").first().textContent())!.trim();
    const atBank = await bankGet<Webhook & { basic_user: string; basic_secret: null }>(`/webhook/${id}`);
    expect(atBank).toMatchObject({ url: receiver.url("/hook"), status: "enabled", basic_user: "hook-user", basic_secret: null });
    expect(await page.content()).not.toContain("hook-secret-e2e");

    // One event, refused by the receiver; once it has failed, the sandbox's control API puts the webhook in error as the
    // bank's error threshold would (its retries could get there first: then the move is a 409 from error).
    const card = (await bankGet<BankListAnswer>("/card?page_size=1")).data[0]!;
    expect((await bankSend("POST", "/simulation", { type: "digital_wallet_token.provisioning", simulation: { card_id: card.id } })).status).toBe(202);
    await eventually(() => receiver.at("/hook").length > 0, 20_000);
    expect([200, 409]).toContain((await bankSend("POST", `/sandbox/webhook/${id}/transition`, { to: "error" })).status);
    expect((await bankGet<Webhook>(`/webhook/${id}`)).status).toBe("error");
    const failures = receiver.at("/hook").length;

    await page.goto(`/webhooks/${id}`);
    await expect(page.getByTestId("resource-detail").getByRole("heading", { level: 1 })).toContainText("error");
    await expect(page.getByTestId("delivery-row").first()).toHaveAttribute("data-succeeded", "false");
    await expect(page.getByTestId("delivery-timeline")).toBeVisible();

    healthy = true;
    await page.getByRole("button", { name: "Reset to enabled" }).click();
    const dialog = page.getByTestId("confirm-dialog");
    await expect(dialog).toContainText("paused deliveries");
    await expect(dialog).toContainText("sent at once");
    await dialog.getByRole("button", { name: "Reset to enabled" }).click();
    await expect(page.getByTestId("webhook-action-done")).toContainText("status enabled");
    await expect(dialog).toBeHidden();
    await eventually(() => receiver.at("/hook").length > failures, 20_000);
    expect((await bankGet<Webhook>(`/webhook/${id}`)).status).toBe("enabled");
    // The table refreshes on its own: the successful attempt arrives without a reload, above the failed ones.
    await expect(page.getByTestId("delivery-row").first()).toHaveAttribute("data-succeeded", "true", { timeout: 15_000 });
    // The failed attempts before it are grouped under the same notification's row.
    await expect(page.getByTestId("delivery-row").first().getByTestId("notification-attempt-count")).not.toHaveText("1 attempt");
    await expect(page.getByTestId("timeline-audit").filter({ hasText: "webhook.update" })).toHaveCount(1);
    await expect(page.getByTestId("timeline-audit").filter({ hasText: "webhook.create" })).toHaveCount(1);

    await page.getByRole("button", { name: "Delete webhook" }).click();
    await expect(dialog).toContainText("cannot be undone");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect((await bankGet<Webhook>(`/webhook/${id}`)).id).toBe(id);
    await page.getByRole("button", { name: "Delete webhook" }).click();
    await dialog.getByRole("button", { name: "Delete webhook" }).click();
    await expect(page).toHaveURL(/\/webhooks$/);
    const gone = await context.request.get(`${baseURL}/api/bank/webhook/${id}`);
    expect(gone.status()).toBe(404);
  } finally {
    await context.close();
    await receiver.close();
  }
});

test("userdata: invalid JSON, a non-object and 1,025 bytes never reach the bank; an edit round-trips and is audited", async ({ browser }) => {
  test.setTimeout(90_000);
  const [transfer] = await networkTransfers(1);
  // Other specs edit this transfer too (in this or the other environment): this edit is known by its own ticket.
  const ticket = `OPS-${Date.now()}`;
  const context = await contextAs(browser, "operations");
  const page = await context.newPage();
  try {
    await page.goto(`/network-transfers/${transfer!.id}`);
    await page.getByRole("button", { name: "Edit userdata" }).click();
    const save = page.getByRole("button", { name: "Save userdata" });
    await expect(page.getByRole("textbox", { name: "Userdata (JSON object)" })).toBeVisible();

    await typeUserdata(page, '{"ticket": ');
    await expect(page.getByTestId("userdata-invalid")).toContainText("Not valid JSON");
    await expect(save).toBeDisabled();
    await typeUserdata(page, "[1, 2]");
    await expect(page.getByTestId("userdata-invalid")).toContainText("not an array");
    await expect(save).toBeDisabled();
    await typeUserdata(page, JSON.stringify({ k: "x".repeat(1025 - 8) }));
    await expect(page.getByTestId("userdata-size")).toHaveText("1025 / 1024 bytes");
    await expect(save).toBeDisabled();
    await typeUserdata(page, JSON.stringify({ k: "x".repeat(1024 - 8) }));
    await expect(page.getByTestId("userdata-size")).toHaveText("1024 / 1024 bytes");
    await expect(save).toBeEnabled();

    const value = { ticket, checked: true };
    await typeUserdata(page, JSON.stringify(value, null, 2));
    await expect(page.getByTestId("userdata-diff")).toContainText("ticket");
    // Nothing refused reached the bank: the object is as it was.
    expect(await bankGet<NetworkTransfer>(`/network_transfer/${transfer!.id}`)).toMatchObject({
      updated_at: transfer!.updated_at,
      userdata: transfer!.userdata,
    });
    // Other specs' edits of this transfer (a bulk tag) are on its timeline already: this edit is one more, the newest.
    const records = page.getByTestId("timeline-audit").filter({ hasText: "network_transfer.userdata.update" });
    await expect(page.getByTestId("timeline")).toBeVisible();
    const earlier = await records.count();
    await save.click();
    await expect(page.getByTestId("userdata-saved")).toBeVisible();
    expect((await bankGet<NetworkTransfer>(`/network_transfer/${transfer!.id}`)).userdata).toEqual(value);
    await expect(records).toHaveCount(earlier + 1);
    const record = records.first();
    await expect(record).toContainText("operations@demo.bank");
    // Operations may not read the audit log: the timeline shows who and what, not the before and after.
    await expect(record.getByTestId("timeline-changes")).toHaveCount(0);
  } finally {
    await context.close();
  }

  const compliance = await contextAs(browser, "compliance");
  const auditPage = await compliance.newPage();
  try {
    const audit = await auditOf(auditPage, transfer!.id);
    expect(audit).toContain("network_transfer.userdata.update");
    // One edit, one record.
    const records = auditPage.getByTestId("audit-table").locator("tbody tr").filter({ hasText: ticket });
    await expect(records).toHaveCount(1);
    await expect(records.getByTestId("audit-action")).toHaveText("network_transfer.userdata.update");
    await auditPage.goto(`/network-transfers/${transfer!.id}`);
    await expect(auditPage.getByTestId("timeline-audit").filter({ hasText: ticket }).getByTestId("timeline-changes")).toContainText(ticket);
  } finally {
    await compliance.close();
  }
});

test("userdata: a change made at the bank after the editor opened is detected and shown, not overwritten", async ({ browser }) => {
  const transfer = (await networkTransfers(2))[1]!;
  const context = await contextAs(browser, "operations");
  const page = await context.newPage();
  try {
    await page.goto(`/network-transfers/${transfer.id}`);
    await page.getByRole("button", { name: "Edit userdata" }).click();
    await expect(page.getByRole("textbox", { name: "Userdata (JSON object)" })).toBeVisible();
    // updated_at has one-second resolution: make sure the concurrent change lands in a later second.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await bankSend("PATCH", `/network_transfer/${transfer.id}`, { userdata: { changed_by: "another system" } })).status).toBe(200);
    await typeUserdata(page, '{"mine": 1}');
    await page.getByRole("button", { name: "Save userdata" }).click();
    await expect(page.getByTestId("userdata-conflict")).toContainText("changed at the bank");
    await expect(page.getByTestId("userdata-newer")).toContainText("another system");
    expect((await bankGet<NetworkTransfer>(`/network_transfer/${transfer.id}`)).userdata).toEqual({ changed_by: "another system" });
    await expect(page.getByTestId("userdata-diff")).toContainText("changed_by");
  } finally {
    await context.close();
  }
});

test("the provisioning simulation creates a wallet token whose status follows the chosen fulfillment", async ({ browser }) => {
  test.setTimeout(60_000);
  const card = (await bankGet<BankListAnswer>("/card?page_size=3")).data[1]!;
  const context = await contextAs(browser, "operations");
  const page = await context.newPage();
  try {
    await page.goto("/simulations");
    await page.getByLabel("Search cards").fill(String(card.last_four));
    await page.getByTestId("card-picker").selectOption(card.id);
    await page.getByLabel("Fulfillment status").selectOption("decision_red");
    await page.getByLabel("Wallet provider").selectOption("GOOGLE_PAY");
    await page.getByRole("button", { name: "Run simulation" }).click();
    const run = page.getByTestId("simulation-run").first();
    await expect(run).toHaveAttribute("data-state", "found", { timeout: 30_000 });
    await expect(run.getByTestId("simulation-token-status")).toHaveText("declined");
    const tokenId = (await run.getByTestId("simulation-token").textContent())!.trim();
    expect(await bankGet(`/digital_wallet_token/${tokenId}`)).toMatchObject({
      card_id: card.id,
      status: "declined",
      fulfillment_status: "decision_red",
      token_requestor_name: "GOOGLE_PAY",
    });
    await run.getByTestId("simulation-token").click();
    await expect(page).toHaveURL(new RegExp(`/wallet-tokens/${tokenId}$`));
  } finally {
    await context.close();
  }
});

test("a card token is issued for a browser-made DPoP proof and its countdown runs", async ({ browser }) => {
  const card = (await bankGet<BankListAnswer>("/card?page_size=1")).data[0]!;
  const context = await contextAs(browser, "operations");
  const page = await context.newPage();
  try {
    await page.goto(`/cards/${card.id}`);
    await page.getByRole("button", { name: "Request token" }).click();
    await expect(page.getByTestId("token-type")).toHaveText("DPoP");
    await expect(page.getByTestId("token-jkt")).toContainText("this page's key");
    await expect(page.getByTestId("token-claims")).toContainText(`"sub": "${card.id}"`);
    const first = await page.getByTestId("token-countdown").textContent();
    await expect(page.getByTestId("token-countdown")).not.toHaveText(first!, { timeout: 5_000 });
    await expect(page.getByTestId("timeline-audit").filter({ hasText: "card.uxt_access_token.create" })).toHaveCount(1);
  } finally {
    await context.close();
  }
});

for (const role of ["viewer", "compliance"] as const) {
  test(`${role} sees none of the action controls, and a direct request is refused with 403`, async ({ browser }) => {
    test.setTimeout(90_000);
    const [transfer] = await networkTransfers(1);
    const card = (await bankGet<BankListAnswer>("/card?page_size=1")).data[0]!;
    // A webhook of its own (made at the bank, as another system would), so the test needs no other test's leftovers.
    const webhook = (await bankSend<Webhook>("POST", "/webhook", { url: "http://127.0.0.1:9/never-answers", event: "fednow.create" })).body;
    const context = await contextAs(browser, role);
    const page = await context.newPage();
    try {
      await page.goto("/webhooks");
      await expect(page.getByRole("table").first()).toBeVisible();
      await expect(page.getByRole("button", { name: "New webhook" })).toHaveCount(0);
      await page.goto(`/webhooks/${webhook.id}`);
      await expect(page.getByTestId("timeline")).toBeVisible();
      await expect(page.getByRole("button", { name: /Edit|Disable|Enable|Reset|Delete/ })).toHaveCount(0);
      await expect(page.getByTestId("webhook-deliveries")).toBeVisible();
      await page.goto(`/network-transfers/${transfer!.id}`);
      await expect(page.getByTestId("resource-detail")).toBeVisible();
      await expect(page.getByTestId("userdata-panel")).toHaveCount(0);
      await page.goto(`/cards/${card.id}`);
      await expect(page.getByTestId("resource-detail")).toBeVisible();
      await expect(page.getByTestId("card-token-panel")).toHaveCount(0);
      await expect(page.getByTestId("card-simulation")).toHaveCount(0);
      await expect(page.getByRole("link", { name: "Simulations" })).toHaveCount(0);
      expect((await page.goto("/simulations"))!.status()).toBe(403);

      const headers = { origin: baseURL };
      const refused = [
        await context.request.post(`${baseURL}/api/bank/webhook`, { headers, data: { url: "https://example.com/x", event: "ach.create" } }),
        await context.request.patch(`${baseURL}/api/bank/webhook/${webhook.id}`, { headers, data: { status: "disabled" } }),
        await context.request.patch(`${baseURL}/api/bank/webhook/${webhook.id}`, {
          headers,
          data: { url: "https://example.com/edited", event: "ach.create" },
        }),
        await context.request.delete(`${baseURL}/api/bank/webhook/${webhook.id}`, { headers }),
        await context.request.patch(`${baseURL}/api/bank/network_transfer/${transfer!.id}`, { headers, data: { userdata: { a: 1 } } }),
        await context.request.post(`${baseURL}/api/bank/network_transfer/${transfer!.id}/userdata`, { headers }),
        await context.request.post(`${baseURL}/api/bank/simulation`, {
          headers,
          data: { type: "digital_wallet_token.provisioning", simulation: { card_id: card.id } },
        }),
        await context.request.post(`${baseURL}/api/bank/card/${card.id}/uxt_access_token`, { headers, data: { dpop: "x.y.z" } }),
      ];
      expect(refused.map((response) => response.status())).toEqual(refused.map(() => 403));
    } finally {
      await context.close();
    }
  });
}
