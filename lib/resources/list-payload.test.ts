import { describe, expect, it } from "vitest";
import { resources } from "./index";
import { listPayload } from "./list-payload";

const row = {
  id: "ach_1",
  status: "sent",
  amount: "12.00",
  direction: "credit",
  service: "standard",
  account_id: "acct_1",
  counterparty_id: "cp_1",
  effective_date: "2026-11-27",
  trace_number: "091907620000012",
  error: null,
  created_at: "2026-11-25T22:44:45Z",
  userdata: { invoice: "INV-1" },
  org_id: "org_1",
  sec_code: "ppd",
  description: "not a column",
};

describe("listPayload", () => {
  it("keeps exactly the fields of the list's columns, hidden-by-default ones included", () => {
    const page = listPayload(resources.ach, { data: [row], page_next: "/api/bank/ach?page_cursor=ach_1" });
    expect(page.page_next).toBe("/api/bank/ach?page_cursor=ach_1");
    expect(Object.keys(page.data[0]!).sort()).toEqual(
      [
        "id",
        "status",
        "amount",
        "direction",
        "service",
        "account_id",
        "counterparty_id",
        "effective_date",
        "trace_number",
        "error",
        "created_at",
      ].sort(),
    );
    expect(page.data[0]).not.toHaveProperty("userdata");
    expect(page.data[0]).not.toHaveProperty("description");
  });

  it("keeps a webhook's Basic user, which no column shows, so the list can keep the console's own subscriptions apart", () => {
    const webhook = {
      id: "webhook_1",
      status: "enabled",
      event: "ach.update",
      url: "https://a.example/hook",
      basic_user: "console-sandbox",
      userdata: {},
    };
    const page = listPayload(resources.webhook, { data: [webhook] });
    expect(page.data[0]).toHaveProperty("basic_user", "console-sandbox");
    expect(page.data[0]).not.toHaveProperty("userdata");
  });

  it("keeps the top-level field of a nested column", () => {
    const page = listPayload(
      {
        columns: [
          { key: "id", label: "Id" },
          { key: "address.city", label: "City" },
        ],
      },
      { data: [{ id: "x", address: { city: "A", zip: "1" }, other: 1 }] },
    );
    expect(page.data).toEqual([{ id: "x", address: { city: "A", zip: "1" } }]);
  });

  it("leaves a page without rows as it is", () => {
    const page = { error: "nope" } as { data?: unknown; error: string };
    expect(listPayload(resources.ach, page)).toBe(page);
  });
});
