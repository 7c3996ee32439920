import { expect, test } from "./sandbox";

// The recipes of docs/testing-with-the-sandbox.md, each a test the doc quotes.

test("an instant payment debit rejected by the receiving bank", async ({ sandbox }) => {
  const payment = await sandbox.create("fednow", { payment_type: "debit", amount: "40.00" });
  // Sent on our side first (processing, sent), then the other bank's answer (processing, rejected): four fednow.update.
  const rejected = await sandbox.transition("fednow", payment.id, { external_status: "rejected", external_reject_reason: "AM04" });
  expect(rejected).toMatchObject({
    status: "sent",
    external_status: "rejected",
    external_reject_reason: { code: "AM04", message: "Insufficient funds" },
  });
});

test("our webhook put into error, as the bank's error threshold would", async ({ sandbox, receiver }) => {
  // The alert a team listens for: webhook.update on another webhook.
  await sandbox.request("POST", "/webhook", { url: receiver.url, event: "webhook.update" });
  const ours = await sandbox.request<{ id: string }>("POST", "/webhook", { url: receiver.url, event: "ach.update" });

  await sandbox.transition("webhook", ours.id, { to: "error" });

  await receiver.waitFor((n) => n.event === "webhook.update" && n.id === ours.id);
  expect(await sandbox.get(`/webhook/${ours.id}`)).toMatchObject({ status: "error", error: expect.stringContaining("bad responses") });
  // What the team's runbook then does: PATCH /webhook/{id} with status enabled.
  expect(await sandbox.request("PATCH", `/webhook/${ours.id}`, { status: "enabled" })).toMatchObject({ status: "enabled", error: null });
});

test("a wire that fails with the bank's message", async ({ sandbox }) => {
  const wire = await sandbox.create("network_transfer", { amount: "5000.00" });
  const failed = await sandbox.transition("network_transfer", wire.id, { to: "error", error: "Beneficiary account closed" });
  expect(failed).toMatchObject({ status: "error", error: "Beneficiary account closed" });
});

test("a notification delivered twice, for an idempotent handler", async ({ sandbox, receiver }) => {
  await sandbox.request("POST", "/webhook", { url: receiver.url, event: "counterparty.create" });
  await sandbox.faults.add({ webhooks: "duplicate", times: 1 });

  const created = await sandbox.create("counterparty", { name: "Seen twice" });

  await receiver.waitFor((n) => n.id === created.id && receiver.notifications.filter((m) => m.id === created.id).length === 2);
});

test("a bank that closes the connection without an answer, then one that is slow", async ({ sandbox }) => {
  await sandbox.faults.add({ match: "GET /counterparty", drop: true, times: 1 });
  await sandbox.faults.add({ match: "GET /counterparty", latency_ms: 1500, times: 1 });
  const { username, password } = sandbox.credentials;
  const read = () => fetch(`${sandbox.url}/counterparty?page_size=1`, { headers: { authorization: `Basic ${btoa(`${username}:${password}`)}` } });

  await expect(read()).rejects.toThrow("fetch failed");
  const started = Date.now();
  expect((await read()).status).toBe(200);
  expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
});
