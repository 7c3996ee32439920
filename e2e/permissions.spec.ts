import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { exposedOperations } from "@/lib/api/bank-allowlist";
import { dpopProof } from "@/tests/support/dpop-proof";
import { eventually, startReceiver } from "@/tests/support/webhook-receiver";
import { operations } from "@/lib/contract/operations";
import { can, roles, type Permission } from "@/lib/permissions";
import { resourceList } from "@/lib/resources";
import { baseURL } from "../playwright.config";
import { bankSend } from "./support/bank";
import { demoUser, signedInContext } from "./support/staff";

/**
 * The permission matrix: every page and route handler, unauthenticated and as each role, against lib/permissions.ts.
 * Unauthenticated: pages redirect to sign-in, routes answer 401, never data. Signed in: exactly what the table allows;
 * everything else is 403.
 */
const pages: Array<{ path: string; permission: Permission; allowedStatus?: number }> = [
  { path: "/", permission: "bank:read" },
  ...resourceList.map((definition) => ({ path: definition.route, permission: "bank:read" as const })),
  { path: "/audit", permission: "audit:read" },
  { path: "/simulations", permission: "simulation:run" },
  { path: "/settings", permission: "staff:manage", allowedStatus: 307 },
  { path: "/settings/staff", permission: "staff:manage" },
  { path: "/settings/credentials", permission: "credentials:manage" },
  { path: "/settings/index", permission: "index:manage" },
  { path: "/events", permission: "bank:read" },
  { path: "/reviews", permission: "review:decide" },
  { path: "/approvals", permission: "change:approve" },
  { path: "/approvals/999999999", permission: "change:approve", allowedStatus: 404 },
  { path: "/search?q=ach", permission: "bank:read" },
  { path: "/sandbox", permission: "bank:read" },
];

/** A bulk action id no job has (lib/bulk): its reads answer 404 to every role that may follow one. */
const unknownBulkJob = "00000000-0000-4000-8000-000000000000";

/**
 * Every route handler file under app/api and how the matrix covers it: a new route file fails the test below until it
 * is listed here. The bank proxy's one catch-all file expands to every operation of the allowlist.
 */
const routeFiles: Record<
  string,
  Array<{ method: string; path: string; permission: Permission }> | "public" | "auth.js" | "bank webhooks" | "metrics token"
> = {
  "/api/audit/export": [{ method: "GET", path: "/api/audit/export", permission: "audit:read" }],
  "/api/events/export": [{ method: "GET", path: "/api/events/export", permission: "bank:read" }],
  "/api/live": [{ method: "GET", path: "/api/live", permission: "bank:read" }],
  "/api/search": [{ method: "GET", path: "/api/search?q=ach", permission: "bank:read" }],
  "/api/names": [{ method: "GET", path: "/api/names?ids=cp_probe", permission: "bank:read" }],
  "/api/customer/[id]": [{ method: "GET", path: "/api/customer/cp_probe", permission: "bank:read" }],
  "/api/index-list/[resource]": [{ method: "GET", path: "/api/index-list/ach?has_error=true", permission: "bank:read" }],
  "/api/index-list/[resource]/count": [{ method: "GET", path: "/api/index-list/ach/count?status=returned", permission: "bank:read" }],
  "/api/index-list/[resource]/ids": [{ method: "GET", path: "/api/index-list/ach/ids?status=returned", permission: "bank:read" }],
  // The bank's notifications: Basic auth with the receiver's credentials, no staff session (lib/index/bank-index.test.ts).
  "/api/bank-events/[environment]": "bank webhooks",
  "/api/bank/[...path]": [],
  "/api/export/[resource]": [
    { method: "GET", path: "/api/export/ach", permission: "bank:read" },
    // Unmasked: the route also needs bank:read, which every role holding pii:reveal has.
    { method: "POST", path: "/api/export/person_application", permission: "pii:reveal" },
  ],
  // A case record for examiners (docs/reviews.md); the probe below downloads one of a real application.
  "/api/reviews/[id]/record": [{ method: "GET", path: "/api/reviews/apsn_matrix_probe/record", permission: "review:decide" }],
  // Four-eyes on changes (docs/approvals.md): deciding a request that does not exist is a 404 for the roles allowed
  // (lib/approvals/approvals.test.ts decides real ones); the setting is switched to what it already is.
  "/api/approvals/[id]/approve": [{ method: "POST", path: "/api/approvals/999999999/approve", permission: "change:approve" }],
  "/api/approvals/[id]/reject": [{ method: "POST", path: "/api/approvals/999999999/reject", permission: "change:approve" }],
  "/api/approvals/[id]/withdraw": [{ method: "POST", path: "/api/approvals/999999999/withdraw", permission: "bank:read" }],
  "/api/approvals/settings": [{ method: "PUT", path: "/api/approvals/settings", permission: "approvals:configure" }],
  "/api/bulk": [{ method: "POST", path: "/api/bulk", permission: "bank:userdata:write" }],
  "/api/bulk/[id]": [{ method: "GET", path: `/api/bulk/${unknownBulkJob}`, permission: "bank:read" }],
  "/api/bulk/[id]/retry": [{ method: "POST", path: `/api/bulk/${unknownBulkJob}/retry`, permission: "bank:read" }],
  "/api/bulk/export": [{ method: "POST", path: "/api/bulk/export", permission: "bank:read" }],
  // The sandbox's controls (lib/sandbox-control/routes.ts): one catch-all file; validRequests probes each route except
  // reset and restore, which would replace the bank every other spec shares (lib/sandbox-control/routes-snapshot.test.ts and
  // e2e/sandbox-console.spec.ts cover those).
  "/api/sandbox/[...path]": [
    { method: "GET", path: "/api/sandbox/clock", permission: "bank:read" },
    { method: "POST", path: "/api/sandbox/reset", permission: "sandbox:reset" },
    { method: "PUT", path: "/api/sandbox/snapshot", permission: "sandbox:reset" },
  ],
  "/api/health": "public",
  // Prometheus's scrape: METRICS_TOKEN's bearer, or (unset, as here) the loopback address only; no staff session
  // (lib/metrics/route.test.ts covers the token, other addresses and trusted proxies).
  "/api/metrics": "metrics token",
  "/api/auth/[...nextauth]": "auth.js",
};

test("the matrix covers every route handler file under app/api", () => {
  const found = readdirSync("app/api", { recursive: true, encoding: "utf8" })
    .filter((file) => path.basename(file) === "route.ts")
    .map((file) => `/api/${path.dirname(file).split(path.sep).join("/")}`);
  expect(found.sort()).toEqual(Object.keys(routeFiles).sort());
});

const probeId = "matrix_probe";
const routes: Array<{ method: string; path: string; permission: Permission }> = [
  ...Object.values(routeFiles).flatMap((covered) => (Array.isArray(covered) ? covered : [])),
  ...exposedOperations.map((exposed) => {
    const operation = operations.find((candidate) => candidate.operationId === exposed.operationId);
    if (!operation) throw new Error(`${exposed.operationId} is exposed but not in the contract`);
    return {
      method: operation.method.toUpperCase(),
      path: `/api/bank${operation.path.replace(/\{[a-z_]+\}/g, probeId)}`,
      permission: exposed.permission,
    };
  }),
  // Revealing masked fields is its own route, beside each read of one object.
  ...exposedOperations
    .filter((exposed) => exposed.resource && exposed.operationId.startsWith("get_"))
    .map((exposed) => ({
      method: "POST",
      path: `/api/bank${operations.find((candidate) => candidate.operationId === exposed.operationId)!.path.replace(/\{[a-z_]+\}/g, probeId)}/reveal`,
      permission: "pii:reveal" as const,
    })),
  // Reading the current userdata to edit it: its own route, for the role that may edit it.
  ...exposedOperations
    .filter((exposed) => exposed.editableUserdata)
    .map((exposed) => ({
      method: "POST",
      path: `/api/bank${operations.find((candidate) => candidate.operationId === exposed.operationId)!.path.replace(/\{[a-z_]+\}/g, probeId)}/userdata`,
      permission: exposed.editableUserdata!,
    })),
];

// Mutations carry the console's own Origin, so a 403 can only come from the permission check.
const call = (request: APIRequestContext, route: { method: string; path: string; body?: unknown }) =>
  request.fetch(route.path, { method: route.method, maxRedirects: 0, headers: { origin: baseURL }, data: route.body });
const sandboxPort = Number(process.env.E2E_SANDBOX_PORT ?? 4110);

interface ProbeRequest {
  method: string;
  path: string;
  permission: Permission;
  status: number;
  body?: unknown;
  audit?: { action: string; target: string | null; environment: string | null };
}

/**
 * A valid request of every route: ids from the demo seed (read by the admin), a webhook made for each run (and one more
 * to delete), valid bodies, and the exact success status and audit record the contract and the allowlist promise.
 */
async function validRequests(admin: APIRequestContext) {
  const firstId = async (list: string) => {
    const response = await admin.get(`/api/bank${list}`);
    expect(response.status(), list).toBe(200);
    return ((await response.json()) as { data: Array<{ id: string }> }).data[0]!.id;
  };
  const newWebhook = async () => {
    const response = await admin.post("/api/bank/webhook", {
      data: { url: `https://hooks.example/${randomUUID()}`, event: "ach.update" },
      headers: { origin: baseURL },
    });
    expect(response.status()).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };
  const ids: Record<string, string> = { "/webhook": await newWebhook(), "/card": await firstId("/card?page_size=1&status=active") };
  const idOf = async (collection: string) => (ids[collection] ??= await firstId(`${collection}?page_size=1`));
  const bodies: Partial<Record<string, (id: string) => Promise<unknown>>> = {
    patch_network_transfer: async () => ({ userdata: { matrix: randomUUID() } }),
    create_uxt_access_token: (id) => dpopProof(`http://127.0.0.1:${sandboxPort}/card/${id}/uxt_access_token`).then((dpop) => ({ dpop })),
    create_simulation: async () => ({ type: "digital_wallet_token.provisioning", simulation: { card_id: ids["/card"] } }),
    create_webhook: async () => ({ url: `https://hooks.example/${randomUUID()}`, event: "ach.update" }),
    // An edit of url, event and Basic credentials (issue 24), the same permission as create.
    patch_webhook: async () => ({
      url: `https://hooks.example/${randomUUID()}`,
      event: "card.update",
      basic_user: "matrix",
      basic_secret: randomUUID(),
    }),
  };
  // Exporting the trail is audited like a bank export, but belongs to no bank environment.
  const requests: ProbeRequest[] = [
    {
      method: "GET",
      path: "/api/audit/export",
      permission: "audit:read",
      status: 200,
      audit: { action: "audit.export", target: null, environment: null },
    },
  ];
  // A case record of an application the console's index holds (the sandbox is walked at start), audited per download.
  const applicationId = await firstId("/apply/person_application?page_size=1");
  requests.push({
    method: "GET",
    path: `/api/reviews/${applicationId}/record?format=json`,
    permission: "review:decide",
    status: 200,
    body: undefined,
    audit: { action: "review.record.download", target: applicationId, environment: "sandbox" },
  });
  for (const decision of ["approve", "reject", "withdraw"] as const) {
    requests.push({
      method: "POST",
      path: `/api/approvals/999999999/${decision}`,
      permission: decision === "withdraw" ? "bank:read" : "change:approve",
      status: 404,
      body: decision === "reject" ? { note: "matrix probe" } : {},
      audit: undefined,
    });
  }
  requests.push({
    method: "PUT",
    path: "/api/approvals/settings",
    permission: "approvals:configure",
    status: 200,
    body: { environment: "sandbox", required: false },
    audit: { action: "approvals.setting", target: "sandbox", environment: "sandbox" },
  });
  // Bulk actions (lib/bulk): the route asks for bank:read, the action for its own permission (403 before anything is read).
  const transfer = await idOf("/network_transfer");
  requests.push(
    {
      method: "POST",
      path: "/api/bulk",
      permission: "bank:userdata:write",
      status: 202,
      body: { action: "userdata.set", resource: "network_transfer", ids: [transfer], key: "matrix", value: randomUUID() },
    },
    { method: "GET", path: `/api/bulk/${unknownBulkJob}`, permission: "bank:read", status: 404 },
    { method: "POST", path: `/api/bulk/${unknownBulkJob}/retry`, permission: "bank:read", status: 404 },
    {
      method: "POST",
      path: "/api/bulk/export",
      permission: "bank:read",
      status: 200,
      body: { resource: "network_transfer", ids: [transfer] },
      audit: { action: "network_transfer.export", target: null, environment: "sandbox" },
    },
  );
  requests.push(...(await sandboxControlRequests()));
  // A notification a receiver acknowledges (so resends never drive its webhook into error), for the resend and test
  // probes: a test is sent only to an enabled webhook.
  const receiver = await startReceiver();
  const resendHook = (await bankSend<{ id: string }>("POST", "/webhook", { url: receiver.url("/matrix"), event: "webhook.update" })).body.id;
  await bankSend("PATCH", `/webhook/${resendHook}`, { userdata: { matrix: true } });
  const notificationId = await eventually(async () => {
    const attempts = await admin.get(`/api/bank/webhook/${resendHook}/deliveries`);
    return ((await attempts.json()) as { data: Array<{ notification_id: string }> }).data[0]?.notification_id;
  });
  for (const exposed of exposedOperations) {
    const operation = operations.find((candidate) => candidate.operationId === exposed.operationId)!;
    const collection = operation.path.split("/{id}")[0]!;
    const id = !operation.path.includes("{id}")
      ? null
      : exposed.operationId === "delete_webhook"
        ? await newWebhook()
        : exposed.operationId === "resend_webhook_notification" || exposed.operationId === "test_webhook"
          ? resendHook
          : await idOf(collection);
    const target = id ?? (exposed.operationId === "create_simulation" ? ids["/card"]! : null);
    requests.push({
      method: operation.method.toUpperCase(),
      path: `/api/bank${id ? operation.path.replace("{id}", id).replace("{notification_id}", notificationId) : operation.path}${operation.operationId.startsWith("list_") ? "?page_size=2" : ""}`,
      permission: exposed.permission,
      status: operation.response.status,
      body: await bodies[exposed.operationId]?.(id ?? ""),
      audit: exposed.audit ? { action: exposed.audit.action, target, environment: "sandbox" } : undefined,
    });
  }
  return requests;
}

/**
 * The sandbox's controls, each on something made for this probe at the bank directly: a new ACH transfer to cancel,
 * a fault that matches nothing (a DELETE the API does not have) and expires by itself.
 */
async function sandboxControlRequests(): Promise<ProbeRequest[]> {
  const ach = (await bankSend<{ id: string }>("POST", "/sandbox/ach", {})).body;
  const fault = { match: "DELETE /counterparty", latency_ms: 1, expires_in: "PT1M" };
  const faultId = (await bankSend<{ id: string }>("POST", "/sandbox/faults", fault)).body.id;
  const sandbox = (action: string, target: string | null = null) => ({ action, target, environment: "sandbox" });
  return [
    { method: "GET", path: "/api/sandbox/clock", permission: "bank:read", status: 200 },
    { method: "GET", path: "/api/sandbox/faults", permission: "bank:read", status: 200 },
    { method: "GET", path: `/api/sandbox/ach/${ach.id}/transitions`, permission: "bank:read", status: 200 },
    {
      method: "POST",
      path: `/api/sandbox/ach/${ach.id}/transition`,
      permission: "sandbox:control",
      status: 200,
      body: { to: "canceled" },
      audit: sandbox("ach.transition", ach.id),
    },
    {
      method: "POST",
      path: "/api/sandbox/clock/advance",
      permission: "sandbox:control",
      status: 200,
      body: { by: "PT1S" },
      audit: sandbox("sandbox.clock.advance"),
    },
    { method: "POST", path: "/api/sandbox/faults", permission: "sandbox:control", status: 201, body: fault, audit: sandbox("sandbox.fault.add") },
    {
      method: "DELETE",
      path: `/api/sandbox/faults/${faultId}`,
      permission: "sandbox:control",
      status: 204,
      audit: sandbox("sandbox.fault.remove", faultId),
    },
    {
      method: "DELETE",
      path: "/api/sandbox/faults",
      permission: "sandbox:control",
      status: 204,
      audit: sandbox("sandbox.fault.clear"),
    },
    {
      method: "GET",
      path: "/api/sandbox/snapshot",
      permission: "sandbox:reset",
      status: 200,
      audit: sandbox("sandbox.snapshot.download"),
    },
  ];
}

/** The audit export's line for `requestId` (the admin reads the trail). */
async function auditLine(admin: APIRequestContext, action: string, requestId: string) {
  const csv = await (await admin.get(`/api/audit/export?action=${encodeURIComponent(action)}`)).text();
  return csv.split("\r\n").find((line) => line.includes(`,${requestId},`)) ?? `no audit record of ${action} with request id ${requestId}`;
}

test.describe("unauthenticated", () => {
  for (const { path } of pages) {
    test(`page ${path} redirects to sign-in`, async ({ request }) => {
      const response = await request.get(path, { maxRedirects: 0 });
      expect(response.status()).toBe(307);
      expect(response.headers().location).toMatch(/^\/sign-in\?from=/);
    });
  }

  test("/api/metrics answers this machine's scrape without a session while METRICS_TOKEN is unset", async ({ request }) => {
    const response = await request.get("/api/metrics");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await response.text()).toContain("# TYPE console_http_requests_total counter");
  });

  test("every route handler answers 401 with the console's error shape", async ({ request }) => {
    for (const route of routes) {
      const response = await call(request, route);
      expect(response.status(), `${route.method} ${route.path}`).toBe(401);
      expect(await response.json()).toEqual({ error: { code: "unauthorized", message: expect.any(String) } });
    }
  });
});

for (const role of roles) {
  test.describe(`as ${role}`, () => {
    test("pages: exactly those the role's permissions allow", async ({ browser }) => {
      const { context } = await signedInContext(browser, role);
      for (const page of pages) {
        const response = await context.request.get(page.path, { maxRedirects: 0 });
        const expected = can(role, page.permission) ? (page.allowedStatus ?? 200) : 403;
        expect(response.status(), `${role} ${page.path}`).toBe(expected);
      }
      await context.close();
    });

    test("route handlers: every allowed request succeeds with its exact status and audit record, every other one is 403", async ({ browser }) => {
      test.setTimeout(120_000);
      const { context } = await signedInContext(browser, role);
      const { context: adminContext } = await signedInContext(browser, "admin");
      const refused: string[] = [];
      for (const probe of await validRequests(adminContext.request)) {
        const response = await call(context.request, probe);
        const label = `${role} ${probe.method} ${probe.path} (${probe.permission})`;
        const requestId = response.headers()["x-request-id"]!;
        if (can(role, probe.permission)) {
          expect(response.status(), `${label}: ${await response.text()}`).toBe(probe.status);
          if (probe.audit) {
            const line = await auditLine(adminContext.request, probe.audit.action, requestId);
            expect(line, label).toContain(`,${demoUser(role).email},`);
            expect(line, label).toContain(
              `,${role},${probe.audit.environment ?? ""},${probe.audit.action},${probe.audit.target ?? ""},succeeded,,${requestId},`,
            );
          }
        } else {
          expect(response.status(), label).toBe(403);
          expect(await response.json(), label).toEqual({ error: { code: "forbidden", message: expect.any(String) } });
          refused.push(requestId);
        }
      }
      const trail = await (await adminContext.request.get("/api/audit/export")).text();
      expect(refused.filter((requestId) => trail.includes(requestId))).toEqual([]);
      await context.close();
      await adminContext.close();
    });

    test("navigation shows only the sections the role may open", async ({ browser }) => {
      const { context, page } = await signedInContext(browser, role);
      const nav = page.getByRole("navigation", { name: "Sections" });
      await expect(nav.getByRole("link", { name: "Audit log" })).toHaveCount(can(role, "audit:read") ? 1 : 0);
      await expect(nav.getByRole("link", { name: "Staff users" })).toHaveCount(can(role, "staff:manage") ? 1 : 0);
      await expect(nav.getByRole("link", { name: "Bank credentials" })).toHaveCount(can(role, "credentials:manage") ? 1 : 0);
      await expect(nav.getByRole("link", { name: "Review queue" })).toHaveCount(can(role, "review:decide") ? 1 : 0);
      await expect(nav.getByRole("link", { name: "Approvals" })).toHaveCount(can(role, "change:approve") ? 1 : 0);
      await expect(nav.getByRole("link", { name: "Sandbox", exact: true })).toHaveCount(can(role, "sandbox:control") ? 1 : 0);
      await context.close();
    });
  });
}

test("the console's own webhooks: operations and admin are refused through the proxy, the admin changes them through the index settings", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { context: adminContext, page } = await signedInContext(browser, "admin");
  const listed = await adminContext.request.get("/api/bank/webhook?event=network_transfer.update&page_size=100");
  expect(listed.status()).toBe(200);
  const hooks = ((await listed.json()) as { data: Array<{ id: string; url: string; status: string; basic_user: string | null }> }).data;
  const own = hooks.find((hook) => hook.basic_user === "console-sandbox")!;
  expect(own.url).toMatch(/\/api\/bank-events\/sandbox$/);
  const atBankBefore = await (await adminContext.request.get(`/api/bank/webhook/${own.id}`)).json();

  const refused: string[] = [];
  for (const role of ["operations", "admin"] as const) {
    const { context } = await signedInContext(browser, role);
    const changes = [
      { method: "PATCH", path: `/api/bank/webhook/${own.id}`, body: { url: `https://hooks.example/${randomUUID()}` } },
      { method: "PATCH", path: `/api/bank/webhook/${own.id}`, body: { status: "disabled" } },
      { method: "DELETE", path: `/api/bank/webhook/${own.id}` },
      { method: "POST", path: "/api/bank/webhook", body: { url: own.url, event: "ach.update" } },
      {
        method: "POST",
        path: "/api/bank/webhook",
        body: { url: `https://hooks.example/${randomUUID()}`, event: "ach.update", basic_user: "console-sandbox" },
      },
    ];
    for (const change of changes) {
      const response = await call(context.request, change);
      const label = `${role} ${change.method} ${change.path} ${JSON.stringify(change.body ?? null)}`;
      expect(response.status(), label).toBe(403);
      expect(await response.json(), label).toEqual({ error: { code: "console_webhook", message: expect.stringContaining("Index of the bank") } });
      refused.push(response.headers()["x-request-id"]!);
    }
    await context.close();
  }
  const trail = await (await adminContext.request.get("/api/audit/export")).text();
  expect(refused.filter((requestId) => trail.includes(requestId))).toEqual([]);
  expect(await (await adminContext.request.get(`/api/bank/webhook/${own.id}`)).json()).toEqual(atBankBefore);

  // Its page says whose it is and offers no change.
  await page.goto(`/webhooks/${own.id}`);
  await expect(page.getByTestId("webhook-console-own")).toContainText("Index of the bank");
  await expect(page.getByRole("button", { name: "Delete webhook" })).toHaveCount(0);

  // The index settings change it: set up, audited as the admin's index.subscriptions.ensure.
  const ensured = (csv: string) =>
    csv
      .split("\r\n")
      .filter((line) => line.includes(`,${demoUser("admin").email},`) && line.includes(",index.subscriptions.ensure,sandbox,succeeded,")).length;
  const before = ensured(await (await adminContext.request.get("/api/audit/export?action=index.subscriptions.ensure")).text());
  await page.goto("/settings/index?environment=sandbox");
  const subscriptions = page.getByTestId("index-subscriptions-sandbox");
  await subscriptions.getByRole("button", { name: "Set up subscriptions" }).click();
  await page.getByTestId("confirm-dialog").getByRole("button", { name: "Set up subscriptions" }).click();
  await expect(subscriptions.getByRole("status")).toContainText("Set up the sandbox subscriptions:", { timeout: 30_000 });
  expect(ensured(await (await adminContext.request.get("/api/audit/export?action=index.subscriptions.ensure")).text())).toBe(before + 1);
  await adminContext.close();
});

test("the audit export is CSV for a role that may read the audit log", async ({ browser }) => {
  const { context } = await signedInContext(browser, "compliance");
  const response = await context.request.get("/api/audit/export");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("text/csv");
  expect((await response.text()).split("\r\n")[0]).toBe(
    "id,at,actorEmail,actorId,role,environment,action,targetId,outcome,error,requestId,before,after",
  );
  const bad = await context.request.get("/api/audit/export?from=yesterday");
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error.message).toContain("from");
  await context.close();
});
