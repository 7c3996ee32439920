import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "@/lib/contract";
import { createLogger } from "@/lib/log";
import { signBearerToken } from "@/sandbox/auth/tokens";
import { startSandbox, type RunningSandbox } from "@/sandbox/server";
import { createBankClient, type BankClient } from "./client";
import { BankRejectedError } from "./errors";
import { dpopProof } from "@/tests/support/dpop-proof";

// The bank client against the sandbox bank started for real (embedded database, demo seed) over real HTTP.

const key = { id: "key_console_client_test", secret: "console-client-test-secret-0123456789" };
let sandbox: RunningSandbox;
let bank: BankClient;

beforeAll(async () => {
  // The sandbox's own errors go to the test output: a 500 from the bank is then explained next to the failure.
  sandbox = await startSandbox({ seed: "demo", demoKey: key, log: createLogger({ level: "error" }) });
  bank = createBankClient({ baseUrl: sandbox.url, auth: { type: "basic", keyId: key.id, secret: key.secret } }, { retries: 0 });
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
});

const listOperations = operations.filter((operation) => operation.operationId.startsWith("list_") && !operation.path.includes("{"));
// The demo seed has many objects of every listed resource but webhooks, which a test creates for itself.
const seededLists = listOperations.filter((operation) => operation.operationId !== "list_webhook");

describe("the bank client against the sandbox bank", () => {
  it.each(seededLists.map((operation) => [operation.operationId, operation] as const))(
    "reads a first page of %s: exactly page_size demo objects, newest first, valid per the contract",
    async (operationId, operation) => {
      const page = (await bank.call(operationId as never, { query: { page_size: 5 } })) as {
        data: Array<{ id: string; created_at: string }>;
        page_next: string | null;
      };
      expect(operation.response.schema!.safeParse(page).success).toBe(true);
      expect(page.data).toHaveLength(5);
      expect(new Set(page.data.map((item) => item.id)).size).toBe(5);
      const times = page.data.map((item) => item.created_at);
      expect([...times].sort().reverse()).toEqual(times);
      expect(page.page_next).toEqual(expect.stringContaining("page_size=5"));
    },
  );

  it("walks every page of a long list by page_next: each object once, newest first, as many as in one big page", async () => {
    const walked: Array<{ id: string; created_at: string }> = [];
    let pages = 0;
    for await (const page of bank.pages("list_ach", { page_size: 50 })) {
      pages += 1;
      walked.push(...page.data);
    }
    const oneBigPage = await bank.list_ach({ page_size: 1000 });
    expect(pages).toBeGreaterThan(2);
    expect(new Set(walked.map((ach) => ach.id)).size).toBe(walked.length);
    expect(walked.map((ach) => ach.id)).toEqual(oneBigPage.data.map((ach) => ach.id));
    const times = walked.map((ach) => ach.created_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it("keeps the filters while following page_next", async () => {
    const sent: string[] = [];
    for await (const ach of bank.items("list_ach", { page_size: 7, status: "sent" })) sent.push(ach.status);
    expect(sent.length).toBeGreaterThan(7);
    expect(new Set(sent)).toEqual(new Set(["sent"]));
  });

  it("gets one object as the list shows it", async () => {
    const { data } = await bank.list_network_transfer({ page_size: 1 });
    const transfer = data[0]!;
    await expect(bank.get_network_transfer(transfer.id)).resolves.toEqual(transfer);
  });

  it("changes a network transfer's userdata and reads the change back", async () => {
    const { data } = await bank.list_network_transfer({ page_size: 1 });
    const updated = await bank.patch_network_transfer(data[0]!.id, { userdata: { reviewed_by: "console test" } });
    expect(updated.userdata).toEqual({ reviewed_by: "console test" });
    expect((await bank.get_network_transfer(data[0]!.id)).userdata).toEqual({ reviewed_by: "console test" });
  });

  it("creates, changes, lists and deletes a webhook", async () => {
    const created = await bank.create_webhook({
      url: "https://hooks.example/console",
      event: "ach.update",
      basic_user: "u",
      basic_secret: "webhook-secret",
    });
    expect(created).toMatchObject({ url: "https://hooks.example/console", status: "enabled", basic_secret: null });
    expect((await bank.list_webhook({ page_size: 100 })).data).toContainEqual(created);
    const disabled = await bank.patch_webhook(created.id, { status: "disabled" });
    expect(disabled.status).toBe("disabled");
    await expect(bank.list_webhook_deliveries(created.id)).resolves.toMatchObject({ data: expect.any(Array) });
    await expect(bank.delete_webhook(created.id)).resolves.toBeUndefined();
    const error = await bank.get_webhook(created.id).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: "rejected", status: 404 });
  });

  it("starts a provisioning simulation (202, no body)", async () => {
    const { data } = await bank.list_card({ page_size: 1 });
    await expect(
      bank.create_simulation({ type: "digital_wallet_token.provisioning", simulation: { card_id: data[0]!.id } }),
    ).resolves.toBeUndefined();
  });

  it("gets a card UX toolkit token with a DPoP proof", async () => {
    const { data } = await bank.list_card({ page_size: 1, status: "active" });
    const cardId = data[0]!.id;
    const dpop = await dpopProof(`${sandbox.url}/card/${cardId}/uxt_access_token`);
    await expect(bank.create_uxt_access_token(cardId, { dpop })).resolves.toMatchObject({ token_type: "DPoP", expires_in: 3600 });
  });

  it("reports the bank's own message for an unknown id and for an unimplemented simulation", async () => {
    const missing = await bank.get_ach("ach_doesnotexist").catch((caught: unknown) => caught);
    expect(missing).toBeInstanceOf(BankRejectedError);
    expect(missing).toMatchObject({ status: 404, bankMessage: expect.stringContaining("ach_doesnotexist") });
    const unimplemented = await bank.create_simulation({ type: "card.teleport", simulation: {} }).catch((caught: unknown) => caught);
    expect(unimplemented).toMatchObject({ status: 400, bankMessage: "Simulation not implemented for card.teleport" });
  });

  it("authenticates with a bearer token as well as HTTP Basic", async () => {
    const token = await signBearerToken(sandbox.signingKey, key.id);
    const withToken = createBankClient({ baseUrl: sandbox.url, auth: { type: "bearer", token } }, { retries: 0 });
    await expect(withToken.list_counterparty({ page_size: 1 })).resolves.toMatchObject({ data: [expect.any(Object)] });
  });

  it("reports refused credentials as a 401 from the bank", async () => {
    const wrong = createBankClient({ baseUrl: sandbox.url, auth: { type: "basic", keyId: key.id, secret: "not-the-secret" } }, { retries: 0 });
    await expect(wrong.list_ach()).rejects.toMatchObject({ kind: "rejected", status: 401 });
  });
});
