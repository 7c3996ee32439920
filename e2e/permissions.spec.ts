import { expect, test, type APIRequestContext } from "@playwright/test";
import { exposedOperations } from "@/lib/api/bank-allowlist";
import { operations } from "@/lib/contract/operations";
import { can, roles, type Permission } from "@/lib/permissions";
import { resourceList } from "@/lib/resources";
import { baseURL } from "../playwright.config";
import { signedInContext } from "./support/staff";

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
];

const probeId = "matrix_probe";
const routes: Array<{ method: string; path: string; permission: Permission }> = [
  { method: "GET", path: "/api/audit/export", permission: "audit:read" },
  { method: "GET", path: "/api/export/ach", permission: "bank:read" },
  // Unmasked: the route also needs bank:read, which every role holding pii:reveal has.
  { method: "POST", path: "/api/export/person_application", permission: "pii:reveal" },
  ...exposedOperations.map((exposed) => {
    const operation = operations.find((candidate) => candidate.operationId === exposed.operationId);
    if (!operation) throw new Error(`${exposed.operationId} is exposed but not in the contract`);
    return { method: operation.method.toUpperCase(), path: `/api/bank${operation.path.replace(/\{[a-z_]+\}/g, probeId)}`, permission: exposed.permission };
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
const call = (request: APIRequestContext, route: { method: string; path: string }) =>
  request.fetch(route.path, { method: route.method, maxRedirects: 0, headers: { origin: baseURL } });

test.describe("unauthenticated", () => {
  for (const { path } of pages) {
    test(`page ${path} redirects to sign-in`, async ({ request }) => {
      const response = await request.get(path, { maxRedirects: 0 });
      expect(response.status()).toBe(307);
      expect(response.headers().location).toMatch(/^\/sign-in\?from=/);
    });
  }

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

    test("route handlers: exactly those the role's permissions allow, everything else 403", async ({ browser }) => {
      const { context } = await signedInContext(browser, role);
      for (const route of routes) {
        const response = await call(context.request, route);
        const label = `${role} ${route.method} ${route.path} (${route.permission})`;
        if (can(role, route.permission)) {
          expect([401, 403], label).not.toContain(response.status());
        } else {
          expect(response.status(), label).toBe(403);
          expect(await response.json(), label).toEqual({ error: { code: "forbidden", message: expect.any(String) } });
        }
      }
      await context.close();
    });

    test("navigation shows only the sections the role may open", async ({ browser }) => {
      const { context, page } = await signedInContext(browser, role);
      const nav = page.getByRole("navigation", { name: "Sections" });
      await expect(nav.getByRole("link", { name: "Audit log" })).toHaveCount(can(role, "audit:read") ? 1 : 0);
      await expect(nav.getByRole("link", { name: "Staff users" })).toHaveCount(can(role, "staff:manage") ? 1 : 0);
      await expect(nav.getByRole("link", { name: "Bank credentials" })).toHaveCount(can(role, "credentials:manage") ? 1 : 0);
      await context.close();
    });
  });
}

test("the audit export is CSV for a role that may read the audit log", async ({ browser }) => {
  const { context } = await signedInContext(browser, "compliance");
  const response = await context.request.get("/api/audit/export");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("text/csv");
  expect((await response.text()).split("\r\n")[0]).toBe("id,at,actorEmail,actorId,role,environment,action,targetId,outcome,error,requestId,before,after");
  const bad = await context.request.get("/api/audit/export?from=yesterday");
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error.message).toContain("from");
  await context.close();
});
