import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { operations } from "@/lib/contract";
import { createBankClient } from "./client";
import { BankInvalidRequestError, BankInvalidResponseError } from "./errors";
import { answerJson, startLocalServer, type LocalServer, type ReceivedRequest } from "@/tests/support/local-server";
import type { TransportOptions } from "./transport";

// Unit-level behaviour of the client against a local HTTP server answering canned bodies; the same client against
// the real sandbox bank is in client.sandbox.test.ts.

const transfer = {
  id: "nt_abc123",
  amount: "12.50",
  created_at: "2026-11-20T10:00:00Z",
  updated_at: "2026-11-20T10:00:00Z",
  cross_bank: false,
  description: null,
  estimated_settlement_at: "2026-11-20T10:00:00Z",
  from_account_id: "acct_1",
  to_account_id: "acct_2",
  status: "pending",
  userdata: { ticket: 7 },
  error: null,
  org_id: null,
  version: "v1",
  balanced_at: null,
  bankdata: null,
};

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientAnswering(
  respond: (request: ReceivedRequest, response: ServerResponse, index: number) => void,
  options: Partial<TransportOptions> = {},
) {
  server = await startLocalServer(respond);
  return createBankClient(
    { baseUrl: server.url, auth: { type: "basic", keyId: "key_1", secret: "secret-1" } },
    { retries: 0, timeoutMs: 2_000, ...options },
  );
}

describe("createBankClient", () => {
  it("has one function per operation of the contract's registry", async () => {
    const client = await clientAnswering(() => {});
    for (const operation of operations) expect(typeof client[operation.operationId as keyof typeof client], operation.operationId).toBe("function");
  });

  it("passes fields the contract does not know through untouched, at every level", async () => {
    const fromTheFuture = { ...transfer, risk_score: { value: 3, model: "m2" }, userdata: { ticket: 7, nested: [1, { a: null }] } };
    const client = await clientAnswering((_request, response) => answerJson(response, 200, fromTheFuture));
    await expect(client.get_network_transfer("nt_abc123")).resolves.toEqual(fromTheFuture);
  });

  it("reports a field of the wrong type by name instead of coercing it", async () => {
    const client = await clientAnswering((_request, response) => answerJson(response, 200, { ...transfer, amount: 12.5 }));
    const error = await client.get_network_transfer("nt_abc123").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BankInvalidResponseError);
    expect((error as BankInvalidResponseError).problems).toEqual([expect.stringMatching(/^amount: .*string/)]);
  });

  it("reports a missing field of a list item with its position", async () => {
    const withoutStatus = Object.fromEntries(Object.entries(transfer).filter(([name]) => name !== "status"));
    const client = await clientAnswering((_request, response) => answerJson(response, 200, { data: [transfer, withoutStatus] }));
    const error = await client.list_network_transfer().catch((caught: unknown) => caught);
    expect((error as BankInvalidResponseError).problems).toEqual([expect.stringMatching(/^data\.1\.status: /)]);
  });

  it("puts path parameters in the path (escaped) and the query's filters in the query string", async () => {
    const client = await clientAnswering((_request, response) => answerJson(response, 200, { data: [] }));
    await client.list_webhook_deliveries("webhook_a/b", { page_size: 5 });
    await client.list_ach({ status: "sent", page_cursor: "ach_9" });
    expect(server!.received.map((request) => request.url)).toEqual([
      "/webhook/webhook_a%2Fb/deliveries?page_size=5",
      "/ach?page_cursor=ach_9&page_size=100&status=sent",
    ]);
  });

  it("sends nothing when the body breaks the contract, naming the field", async () => {
    const client = await clientAnswering((_request, response) => answerJson(response, 200, transfer));
    const error = await client
      .patch_network_transfer("nt_abc123", { userdata: { a: 1 }, status: "sent" } as never)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BankInvalidRequestError);
    expect((error as BankInvalidRequestError).problems.join()).toContain("status");
    expect(server!.received).toHaveLength(0);
  });

  it("retries a list after a 503 but sends a userdata change exactly once", async () => {
    const retrying = await clientAnswering((_request, response) => answerJson(response, 503, { error: "maintenance" }), {
      retries: 2,
      retryBaseMs: 1,
    });
    await expect(retrying.list_ach()).rejects.toMatchObject({ kind: "server_error", status: 503, attempts: 3 });
    expect(server!.received).toHaveLength(3);
    server!.received.length = 0;
    await expect(retrying.patch_network_transfer("nt_1", { userdata: { a: 1 } })).rejects.toMatchObject({ kind: "server_error", attempts: 1 });
    expect(server!.received.map((request) => request.method)).toEqual(["PATCH"]);
  });

  it("walks every page of a list by following page_next, then stops", async () => {
    const client = await clientAnswering((request, response) => {
      const cursor = new URL(request.url, "http://x").searchParams.get("page_cursor");
      const pages: Record<string, object> = {
        first: { data: [{ ...transfer, id: "nt_3" }], page_next: `${server!.url}/network_transfer?page_size=1&page_cursor=nt_3` },
        nt_3: { data: [{ ...transfer, id: "nt_2" }], page_next: `${server!.url}/network_transfer?page_size=1&page_cursor=nt_2` },
        nt_2: { data: [{ ...transfer, id: "nt_1" }] },
      };
      answerJson(response, 200, pages[cursor ?? "first"]);
    });
    const ids: string[] = [];
    for await (const item of client.items("list_network_transfer", { page_size: 1 })) ids.push(item.id);
    expect(ids).toEqual(["nt_3", "nt_2", "nt_1"]);
    expect(server!.received).toHaveLength(3);
  });

  it("refuses a page_next on another origin instead of sending the credentials there", async () => {
    const client = await clientAnswering((_request, response) =>
      answerJson(response, 200, { data: [transfer], page_next: "http://127.0.0.1:1/network_transfer?page_cursor=nt_abc123" }),
    );
    const walk = async () => {
      for await (const page of client.pages("list_network_transfer")) void page;
    };
    await expect(walk()).rejects.toBeInstanceOf(BankInvalidResponseError);
    expect(server!.received).toHaveLength(1);
  });

  it("stops a list whose page_next repeats a page already read", async () => {
    const client = await clientAnswering((_request, response) =>
      answerJson(response, 200, { data: [transfer], page_next: `${server!.url}/network_transfer?page_cursor=nt_abc123` }),
    );
    const walk = async () => {
      for await (const page of client.pages("list_network_transfer")) void page;
    };
    await expect(walk()).rejects.toThrow(/repeats a page/);
  });
});
