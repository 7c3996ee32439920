import { describe, expect, it } from "vitest";
import { createBankClient } from "@/lib/bank/client";
import { startLocalServer } from "@/tests/support/local-server";
import { maskedFields, maskedValue, maskForViewer, type ApplicationKind } from "@/lib/pii";
import { roles } from "@/lib/permissions";
import { rateLimitRules, resetRateLimits } from "./rate-limit";
import { testDatabaseTargets } from "@/tests/support/databases";
import { proxyHarness, staff, startProxyBank } from "@/tests/support/proxy-harness";

// Reads through the bank proxy (tests/support/proxy-harness.ts: the real sandbox bank behind a recording hop,
// a real audit trail on every database target): answers equal to the bank's, masking and audited reveal of personal
// data, paging, and the clear errors for bad queries, unknown paths, no session, no bank.

const bank = startProxyBank();

/** Reads with a query the bank's contract refuses, and the parameter the 400 must name. */
const badQueries: Array<{ path: string; field: string }> = [
  { path: "/ach?page_size=0", field: "page_size" },
  { path: "/ach?page_size=ten", field: "page_size" },
  { path: "/network_transfer?colour=red", field: "colour" },
  { path: "/card?status=melted", field: "status" },
  { path: "/ach/ach_1?page_size=1", field: "page_size" },
  { path: "/apply/person_application/apsn_1?reveal=maybe", field: "reveal" },
];

/** The personal fields each application kind must never show unmasked to a role without `pii:reveal`. */
const personalFields: Record<ApplicationKind, string[]> = {
  person_application: ["identification_number", "date_of_birth", "phone_number", "email_address", "secondary_email_address"],
  business_application: ["identification_number", "tin", "phone_number"],
};

describe.each(testDatabaseTargets)("reads through the bank proxy, audit trail on $name", (target) => {
  const harness = proxyHarness(bank, target);
  const { session, callProxy, proxyWith, allAuditRecords, recordsOf, sentToBank, expectedRecord } = harness;

  it.each(badQueries)("answers 400 naming $field to GET $path, and asks the bank nothing", async ({ path: bankPath, field }) => {
    session.user = staff("compliance");
    const response = await callProxy("GET", bankPath);
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ error: { code: "invalid_input", message: expect.stringContaining(field) } });
    expect(bank.recording.received).toEqual([]);
  });

  it("answers 503 naming the environment when it has no bank connection, for reads and changes alike", async () => {
    session.environment = "production";
    const unconfigured = proxyWith({ bankClient: async () => null });
    for (const [method, bankPath, body] of [
      ["GET", "/ach"],
      ["PATCH", `/network_transfer/${bank.seed.networkTransfer}`, { userdata: {} }],
    ] as const) {
      const response = await callProxy(method, bankPath, { body, through: unconfigured });
      expect(response.status).toBe(503);
      expect(response.json).toEqual({ error: { code: "bank_not_configured", message: expect.stringContaining("production environment") } });
    }
    expect(await allAuditRecords()).not.toContainEqual(
      expect.objectContaining({ environment: "production", action: "network_transfer.userdata.update" }),
    );
  });

  it("shows a failed delivery's reply only to roles that may manage webhooks; others see the status alone", async () => {
    const receiver = await startLocalServer((_request, response) => {
      response.writeHead(500, { "content-type": "text/plain" });
      response.end("internal admin panel on 10.0.0.7:8080");
    });
    try {
      const hook = await bank.direct.create_webhook({ url: `${receiver.url}/hook`, event: "webhook.create" });
      const other = await bank.direct.create_webhook({ url: "https://hooks.example/other", event: "ach.update" });
      let listed: Record<string, unknown>[] = [];
      for (let tries = 0; tries < 100 && listed.length === 0; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        listed = (await bank.direct.list_webhook_deliveries(hook.id, { page_size: 10 })).data as Record<string, unknown>[];
      }
      expect(listed[0]!.error).toBe("HTTP 500: internal admin panel on 10.0.0.7:8080 (only 200 or 202 acknowledge)");
      for (const role of roles) {
        session.user = staff(role);
        const response = await callProxy("GET", `/webhook/${hook.id}/deliveries?page_size=10`);
        expect(response.status).toBe(200);
        // The same delivery as listed above: another (the `other` webhook's creation) may have arrived since.
        const first = (response.json as { data: Array<{ id: string; error: string; response_body: string; request_body: string }> }).data.find(
          (delivery) => delivery.id === listed[0]!.id,
        );
        const manages = role === "admin" || role === "operations";
        expect([role, first!.error]).toEqual([role, manages ? listed[0]!.error : "HTTP 500 (reply shown to roles that manage webhooks)"]);
        // The reply itself likewise; the notification sent carries no personal data and is shown to every reader.
        expect([role, first!.response_body]).toEqual([role, manages ? "internal admin panel on 10.0.0.7:8080" : maskedValue]);
        expect([role, first!.request_body]).toEqual([role, listed[0]!.request_body]);
      }
      await bank.direct.delete_webhook(hook.id);
      await bank.direct.delete_webhook(other.id);
    } finally {
      await receiver.close();
    }
  });

  it("refuses a filter on a field the role sees masked, naming it, before anything is sent; a role that sees it is audited and rate-limited", async () => {
    resetRateLimits();
    const payment = (await bank.direct.list_fednow({ page_size: 100 })).data.find((item) => item.external_account_number)!;
    const number = String(payment.external_account_number);
    const filtered = `/fednow?external_account_number=${encodeURIComponent(number)}`;
    for (const role of ["viewer", "operations"] as const) {
      session.user = staff(role);
      const refused = await callProxy("GET", filtered);
      expect(refused.status).toBe(403);
      expect(refused.json).toEqual({ error: { code: "forbidden", message: expect.stringContaining("external_account_number") } });
      expect(await recordsOf(refused)).toEqual([]);
    }
    expect(sentToBank()).toEqual([]);

    session.user = staff("compliance");
    const allowed = await callProxy("GET", filtered);
    expect(allowed.status).toBe(200);
    const rows = (allowed.json as { data: Array<Record<string, unknown>> }).data;
    expect(rows.map((row) => row.id)).toContain(payment.id);
    // The answer is masked as every list: the filter is the only read of the number, and it is on the record.
    expect(allowed.text).not.toContain(number);
    expect(await recordsOf(allowed)).toEqual([
      expectedRecord(allowed, {
        action: "fednow.masked_filter",
        targetId: null,
        before: { filters: { external_account_number: number }, source: "bank" },
        after: { rows: rows.length },
        outcome: "succeeded",
        error: null,
      }),
    ]);
    for (let call = 1; call < rateLimitRules.maskedFilter.points; call++) expect((await callProxy("GET", filtered)).status).toBe(200);
    const sent = sentToBank().length;
    const limited = await callProxy("GET", filtered);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
    expect(sentToBank().length).toBe(sent);
    // Filters on fields every role sees are neither limited nor audited.
    const plain = await callProxy("GET", `/fednow?account_id=${payment.account_id}`);
    expect(plain.status).toBe(200);
    expect(await recordsOf(plain)).toEqual([]);
  });

  it.each([
    ["an unknown path", "GET", "/secret_admin_thing"],
    ["a method the allowlist does not expose for a path", "DELETE", "/network_transfer/nt_1"],
    ["a deeper path than any operation", "GET", "/ach/ach_1/extra"],
  ])("answers 404 for %s", async (_name, method, bankPath) => {
    const response = await callProxy(method, bankPath);
    expect(response.status).toBe(404);
    expect(response.json).toEqual({ error: { code: "not_found", message: expect.any(String) } });
    expect(bank.recording.received).toEqual([]);
  });

  it("answers 401 without a session, before anything else", async () => {
    session.user = null;
    const response = await callProxy("GET", `/network_transfer/${bank.seed.networkTransfer}`);
    expect(response.status).toBe(401);
    expect(response.json).toEqual({ error: { code: "unauthorized", message: expect.any(String) } });
    expect(bank.recording.received).toEqual([]);
  });

  it("gives every answer its own request id", async () => {
    const first = await callProxy("GET", `/network_transfer/${bank.seed.networkTransfer}`);
    const second = await callProxy("GET", "/nowhere");
    expect(first.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.requestId).not.toBe(first.requestId);
  });

  it("answers a read with the bank's object, masked by its allowlist", async () => {
    const response = await callProxy("GET", `/network_transfer/${bank.seed.networkTransfer}`);
    expect(response.status).toBe(200);
    expect(response.json).toEqual(maskForViewer("network_transfer", await bank.direct.get_network_transfer(bank.seed.networkTransfer)));
    expect(sentToBank()).toEqual([`GET /network_transfer/${bank.seed.networkTransfer}`]);
  });

  it("passes the query on and points a list's page_next at the console, which serves the next page", async () => {
    const first = await callProxy("GET", "/ach?page_size=2&status=sent");
    expect(first.status).toBe(200);
    const page = first.json as unknown as { data: Array<{ id: string; status: string }>; page_next: string };
    const expected = (await bank.direct.list_ach({ page_size: 4, status: "sent" })).data.map((item) => maskForViewer("ach", item));
    expect(page.data).toEqual(expected.slice(0, 2));
    expect(page.page_next).toMatch(/^\/api\/bank\/ach\?/);
    const next = await callProxy("GET", page.page_next.slice("/api/bank".length));
    expect((next.json as unknown as { data: unknown[] }).data).toEqual(expected.slice(2, 4));
  });

  it("passes the bank's 404 on with the bank's message", async () => {
    const response = await callProxy("GET", "/network_transfer/nt_missing");
    expect(response.status).toBe(404);
    expect(response.json).toEqual({ error: { code: "not_found", message: expect.stringContaining("nt_missing") } });
  });

  it("answers 502 with a clear message and no stack trace when the bank is unreachable", async () => {
    const stopped = await startLocalServer(() => undefined);
    await stopped.close();
    const unreachable = proxyWith({
      bankClient: async () => createBankClient({ baseUrl: stopped.url, auth: { type: "bearer", token: "t" } }, { retries: 1, retryBaseMs: 1 }),
    });
    const response = await callProxy("GET", "/ach", { through: unreachable });
    expect(response.status).toBe(502);
    expect(response.json).toEqual({ error: { code: "bank_unreachable", message: expect.stringContaining("could not be reached") } });
    expect(response.text).not.toMatch(/\bat .*\.ts:\d+/);
  });

  // Masking and reveal: masking is a per-resource allowlist and reveal is a POST; the helpers below
  // are the one place that knows how a reveal is asked for and which fields are personal.
  describe.each(["person_application", "business_application"] as const)("personal data on a %s", (kind) => {
    const applicationPath = () => `/apply/${kind}/${bank.seed[kind]}`;
    const reason = "KYC ticket CASE-1234";
    const reveal = () => callProxy("POST", `${applicationPath()}/reveal`, { body: { reason, fields: "all" } });
    const raw = () => bank.direct.call(`get_${kind}`, { params: { id: bank.seed[kind] } }) as Promise<Record<string, unknown>>;

    /** `shown` is `original` masked by the allowlist (lib/pii.ts): no personal value appears anywhere in the answer. */
    function expectMasked(shown: Record<string, unknown>, original: Record<string, unknown>) {
      expect(shown).toEqual(maskForViewer(kind, structuredClone(original)));
      const text = JSON.stringify(shown);
      const personal = personalFields[kind].filter((field) => typeof original[field] === "string" && original[field] !== "");
      expect(personal.length).toBeGreaterThan(1);
      for (const field of personal) expect(text, `${field} of ${original.id}`).not.toContain(original[field] as string);
    }

    it.each(["viewer", "operations"] as const)("is masked for %s in a single application, and nothing is recorded", async (role) => {
      session.user = staff(role);
      const response = await callProxy("GET", applicationPath());
      expect(response.status).toBe(200);
      expectMasked(response.json!, await raw());
      expect(await recordsOf(response)).toEqual([]);
    });

    it("is masked in every item of a list", async () => {
      session.user = staff("viewer");
      const response = await callProxy("GET", `/apply/${kind}?page_size=10`);
      const shown = (response.json as unknown as { data: Array<Record<string, unknown>> }).data;
      const original = ((await bank.direct.call(`list_${kind}`, { query: { page_size: 10 } })) as { data: Array<Record<string, unknown>> }).data;
      expect(shown.map((item) => item.id)).toEqual(original.map((item) => item.id));
      for (const [index, item] of shown.entries()) expectMasked(item, original[index]!);
    });

    it("stays masked for compliance: a GET never reveals, whatever its query says", async () => {
      session.user = staff("compliance");
      const response = await callProxy("GET", applicationPath());
      expectMasked(response.json!, await raw());
      expect(await recordsOf(response)).toEqual([]);
      const asked = await callProxy("GET", `${applicationPath()}?reveal=true`);
      expect(asked.status).toBe(400);
      expect(await recordsOf(asked)).toEqual([]);
    });

    it("masks a field the allowlist does not name, in a single object and in a list, for every role", async () => {
      const stop = bank.recording.addFields(`/apply/${kind}`, { full_ssn: "123-45-6789", owner: { date_of_birth: "1970-01-01" } });
      try {
        for (const role of roles) {
          session.user = staff(role);
          const one = await callProxy("GET", applicationPath());
          const list = await callProxy("GET", `/apply/${kind}?page_size=2`);
          for (const shown of [one.json, (list.json as unknown as { data: unknown[] }).data[0]]) {
            expect(shown, role).toMatchObject({ full_ssn: "[masked]", owner: "[masked]" });
          }
          expect(one.text + list.text).not.toContain("1970-01-01");
          expect(one.text + list.text).not.toContain("123-45-6789");
        }
      } finally {
        stop();
      }
    });

    it("is not revealed to a POST from another origin", async () => {
      session.user = staff("compliance");
      const response = await callProxy("POST", `${applicationPath()}/reveal`, { origin: "https://evil.example", body: { reason, fields: "all" } });
      expect(response.status).toBe(403);
      expect(bank.recording.received).toEqual([]);
    });

    it.each(["compliance", "admin"] as const)("is revealed to %s on request, exactly as the bank has it, with one audit record", async (role) => {
      session.user = staff(role);
      const response = await reveal();
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-store");
      const original = await raw();
      expect(response.json).toEqual(original);
      const fields = maskedFields(kind, original);
      for (const field of personalFields[kind]) if (typeof original[field] === "string") expect(fields).toContain(field);
      expect(fields).not.toContain("id");
      expect(await recordsOf(response)).toEqual([
        expectedRecord(response, {
          action: `${kind}.reveal`,
          targetId: bank.seed[kind],
          before: null,
          after: { requested: "all", fields, reason, expiresAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/) },
          outcome: "succeeded",
          error: null,
        }),
      ]);
    });

    it.each([
      ["no body", undefined],
      ["no reason", {}],
      ["an empty reason", { reason: "   " }],
      ["a reason that is not text", { reason: 42 }],
    ])("is refused with 400 naming the reason for %s; the bank is not asked and nothing is recorded", async (_case, body) => {
      session.user = staff("compliance");
      const response = await callProxy("POST", `${applicationPath()}/reveal`, { body });
      expect(response.status).toBe(400);
      expect(response.json).toEqual({ error: { code: "invalid_input", message: expect.stringContaining("reason") } });
      expect(bank.recording.received).toEqual([]);
      expect(await recordsOf(response)).toEqual([]);
    });

    it("is not revealed when the reveal cannot be audited", async () => {
      session.user = staff("compliance");
      await harness.breakAuditTrail();
      const response = await reveal();
      expect(response.status).toBe(500);
      const original = await raw();
      for (const field of personalFields[kind]) if (typeof original[field] === "string") expect(response.text).not.toContain(original[field]);
    });

    it.each(["viewer", "operations"] as const)("is never revealed to %s, the bank is not asked and nothing is recorded", async (role) => {
      session.user = staff(role);
      const response = await reveal();
      expect(response.status).toBe(403);
      expect(bank.recording.received).toEqual([]);
      expect(await recordsOf(response)).toEqual([]);
    });
  });
});
