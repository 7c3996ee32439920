import { expect, test, type SandboxClient } from "./sandbox";

// Each test starts from the demo data: the kit resets the sandbox bank before it (sandboxState "demo", the default)
// and removes every fault after it.

test("an ACH debit returned R01 reaches our webhook handler", async ({ sandbox, receiver }) => {
  await sandbox.request("POST", "/webhook", { url: receiver.url, event: "ach.update", basic_user: "bank", basic_secret: "s3cret-for-tests" });
  const supplier = await sandbox.create("counterparty", { name: "Acme Supply" });
  const ach = await sandbox.create("ach", { amount: "250.00", direction: "debit", counterparty_id: supplier.id });
  expect(ach.status).toBe("pending");

  // Returned now, through processing, as the network would: two ach.update notifications.
  await sandbox.transition("ach", ach.id, { to: "returned", error: "R01" });

  const notification = await receiver.waitFor((n) => n.event === "ach.update" && n.id === ach.id);
  expect(notification.headers.authorization).toBe(`Basic ${Buffer.from("bank:s3cret-for-tests").toString("base64")}`);
  // What a handler does with a notification: fetch the object it names.
  expect(await sandbox.get(notification.url)).toMatchObject({ status: "returned", error: expect.stringMatching(/^R01 /) });
});

test("a pending ACH transfer is sent once the clock has moved a day", async ({ sandbox }) => {
  const ach = await sandbox.create("ach", { amount: "80.00" });
  const before = await sandbox.clock.now();

  const after = await sandbox.clock.advance("P1D");

  expect(after.getTime() - before.getTime()).toBeGreaterThanOrEqual(24 * 3600 * 1000);
  expect(await sandbox.get(`/ach/${ach.id}`)).toMatchObject({ status: "sent" });
});

/** Our own code under test: reads the ACH list, waiting as long as the bank's Retry-After says before trying again. */
async function listAchTransfers(bank: SandboxClient, attempts: number): Promise<{ data: unknown[] }> {
  const authorization = `Basic ${Buffer.from(`${bank.credentials.username}:${bank.credentials.password}`).toString("base64")}`;
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(`${bank.url}/ach?page_size=10`, { headers: { authorization } });
    if (response.ok) return (await response.json()) as { data: unknown[] };
    if (attempt === attempts || response.status !== 503) throw new Error(`the bank answered ${response.status}`);
    await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get("retry-after")) * 1000));
  }
}

test("our client waits out a 503 with Retry-After, and recovers when the bank does", async ({ sandbox }) => {
  await sandbox.faults.add({ match: "GET /ach", status: 503, retry_after: 1 });
  const started = Date.now();
  await expect(listAchTransfers(sandbox, 2)).rejects.toThrow("the bank answered 503");
  expect(Date.now() - started).toBeGreaterThanOrEqual(1000);

  await sandbox.faults.clear();
  expect((await listAchTransfers(sandbox, 1)).data).toHaveLength(10);
});

test.describe("from an empty bank", () => {
  test.use({ sandboxState: "empty" });

  test("a snapshot taken before a change restores the same list", async ({ sandbox }) => {
    const supplier = await sandbox.create("counterparty", { name: "Acme Supply" });
    await sandbox.create("ach", { amount: "10.00", counterparty_id: supplier.id });
    await sandbox.create("ach", { amount: "20.00", counterparty_id: supplier.id });
    const listed = await sandbox.list("ach");
    const saved = await sandbox.snapshot();

    await sandbox.transition("ach", listed.data[0]!.id, { to: "canceled" });
    await sandbox.create("ach", { amount: "30.00", counterparty_id: supplier.id });
    await sandbox.restore(saved);

    expect(await sandbox.list("ach")).toEqual(listed);
  });
});
