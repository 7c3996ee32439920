import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { can, roles } from "@/lib/permissions";
import { baseURL } from "../playwright.config";
import { demoUser, signedInContext } from "./support/staff";

import { pages, routeFiles, routes, validRequests } from "./support/permission-probes";

/**
 * The permission matrix: every page and route handler, unauthenticated and as each role, against lib/permissions.ts.
 * Unauthenticated: pages redirect to sign-in, routes answer 401, never data. Signed in: exactly what the table allows;
 * everything else is 403.
 */

test("the matrix covers every route handler file under app/api", () => {
  const found = readdirSync("app/api", { recursive: true, encoding: "utf8" })
    .filter((file) => path.basename(file) === "route.ts")
    .map((file) => `/api/${path.dirname(file).split(path.sep).join("/")}`);
  expect(found.sort()).toEqual(Object.keys(routeFiles).sort());
});

// Mutations carry the console's own Origin, so a 403 can only come from the permission check.
const call = (request: APIRequestContext, route: { method: string; path: string; body?: unknown }) =>
  request.fetch(route.path, { method: route.method, maxRedirects: 0, headers: { origin: baseURL }, data: route.body });

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
