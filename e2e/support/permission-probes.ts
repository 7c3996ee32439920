import { randomUUID } from "node:crypto";
import { expect, type APIRequestContext } from "@playwright/test";
import { exposedOperations } from "@/lib/api/bank-allowlist";
import { operations } from "@/lib/contract/operations";
import type { Permission } from "@/lib/permissions";
import { resourceList } from "@/lib/resources";
import { dpopProof } from "@/tests/support/dpop-proof";
import { eventually, startReceiver } from "@/tests/support/webhook-receiver";
import { baseURL } from "../../playwright.config";
import { bankSend } from "./bank";

// The permission matrix's inventory (e2e/permissions.spec.ts): every page and route handler with the permission it
// needs, and a valid request of each with its success status and audit record.

const sandboxPort = Number(process.env.E2E_SANDBOX_PORT ?? 4110);

export const pages: Array<{ path: string; permission: Permission; allowedStatus?: number }> = [
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
export const unknownBulkJob = "00000000-0000-4000-8000-000000000000";

/**
 * Every route handler file under app/api and how the matrix covers it: a new route file fails the test below until it
 * is listed here. The bank proxy's one catch-all file expands to every operation of the allowlist.
 */
export const routeFiles: Record<
  string,
  Array<{ method: string; path: string; permission: Permission }> | "public" | "auth.js" | "bank webhooks" | "metrics token"
> = {
  "/api/audit/export": [{ method: "GET", path: "/api/audit/export", permission: "audit:read" }],
  "/api/events/export": [{ method: "GET", path: "/api/events/export", permission: "bank:read" }],
  "/api/live": [{ method: "GET", path: "/api/live", permission: "bank:read" }],
  "/api/search": [{ method: "GET", path: "/api/search?q=ach", permission: "bank:read" }],
  "/api/names": [{ method: "GET", path: "/api/names?ids=cp_probe", permission: "bank:read" }],
  "/api/customer/[id]": [{ method: "GET", path: "/api/customer/cp_probe", permission: "bank:read" }],
  "/api/customer/[id]/links": [{ method: "GET", path: "/api/customer/apsn_probe/links", permission: "bank:read" }],
  "/api/search/names": [{ method: "GET", path: "/api/search/names?for=counterparty&q=Summit", permission: "bank:read" }],
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

const probeId = "matrix_probe";
export const routes: Array<{ method: string; path: string; permission: Permission }> = [
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

export interface ProbeRequest {
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
export async function validRequests(admin: APIRequestContext) {
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
  // What the index links to an application (docs/console-pages.md), and a name resolved for an id filter (docs/search.md).
  requests.push(
    { method: "GET", path: `/api/customer/${applicationId}/links`, permission: "bank:read", status: 200 },
    { method: "GET", path: "/api/search/names?for=counterparty&q=Summit", permission: "bank:read", status: 200 },
  );
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
