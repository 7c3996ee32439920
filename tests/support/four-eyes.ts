import { randomUUID } from "node:crypto";
import { beforeAll, beforeEach, expect } from "vitest";
import { bankProxyResolver, type BankProxy } from "@/lib/api/bank-proxy";
import { createApiRoute } from "@/lib/api/route";
import { approvalRoutes } from "@/lib/approvals/routes";
import { approvalService, type ApprovalService } from "@/lib/approvals/service";
import { audited, recordAuditEvent } from "@/lib/audit/trail";
import type { StaffUser } from "@/lib/auth/staff-user";
import { createStaff } from "@/lib/auth/staff-users";
import { applyCredentialsChange } from "@/lib/credentials/apply";
import type { Environment } from "@/lib/credentials/environments";
import { loadSavedConnection, summarize } from "@/lib/credentials/store";
import { createLogger } from "@/lib/log";
import type { TestDatabaseTarget } from "./databases";
import { proxyHarness, type ProxyBank } from "./proxy-harness";

/** The staff users four-eyes tests act as: real rows, created once per database target. */
export interface FourEyesStaff {
  maker: StaffUser;
  approver: StaffUser;
  secondApprover: StaffUser;
  compliance: StaffUser;
  admin: StaffUser;
  secondAdmin: StaffUser;
}

/**
 * Four-eyes on changes (docs/approvals.md) wired for a test file: the real sandbox bank behind the recording hop, a
 * console database on `target`, the approval service and the proxy holding changes through it, real staff users,
 * and the approvals' route handlers called as one of them. Each test starts in production, signed in as the maker,
 * with requests that expire after an hour (`state.expiryMs`).
 */
export function fourEyesFixture(bank: ProxyBank, key: Buffer, target: TestDatabaseTarget) {
  const harness = proxyHarness(bank, target);
  const { session, callProxy } = harness;
  const db = () => harness.database.db;
  const state = { expiryMs: 3_600_000 };
  const staff = {} as FourEyesStaff;
  let proxy: BankProxy;
  let service: ApprovalService;

  const describeConnection = async (environment: Environment) => {
    const saved = await loadSavedConnection(db(), environment, key);
    return summarize(saved, environment, "saved", saved ?? undefined);
  };

  beforeAll(async () => {
    service = approvalService({
      db: async () => db(),
      audited: (entry, perform, options) => audited(db(), entry, perform, options),
      recordAuditEvent: (entry) => recordAuditEvent(db(), entry),
      expiryMs: () => state.expiryMs,
      encryptionKey: () => key,
      sendBank: (change, user, requestId) => proxy.sendApproved(change, user, requestId),
      bankBefore: (change) => proxy.heldBeforeNow(change),
      applyCredentials: (change, user, makerEmail, requestId) =>
        applyCredentialsChange(
          { db: async () => db(), encryptionKey: () => key, describeConnection, audited: (e, p, o) => audited(db(), e, p, o) },
          change,
          user,
          makerEmail,
          requestId,
        ),
      describeConnection,
    });
    proxy = bankProxyResolver({ ...harness.dependencies(), approvals: service });
    const member = (role: StaffUser["role"]) => createStaff(db(), { email: `${randomUUID()}@bank.example`, name: role, role, password: null });
    [staff.maker, staff.approver, staff.secondApprover, staff.compliance, staff.admin, staff.secondAdmin] = await Promise.all([
      member("operations"),
      member("operations"),
      member("operations"),
      member("compliance"),
      member("admin"),
      member("admin"),
    ]);
  });

  beforeEach(() => {
    state.expiryMs = 3_600_000;
    session.environment = "production";
    session.user = staff.maker;
  });

  const route = createApiRoute({ currentUser: async () => session.user, log: createLogger({ level: "silent" }) });
  const routes = approvalRoutes(() => service);
  const through = () => route(proxy);

  /** Calls an approvals route as `user` from the console's origin. */
  async function decide(user: StaffUser, id: number, decision: "approve" | "reject" | "withdraw", body?: object) {
    const handler = route(routes[decision]);
    const request = new Request(`http://console.test/api/approvals/${id}/${decision}`, {
      method: "POST",
      headers: { origin: "http://console.test", "content-type": "application/json" },
      body: body ? JSON.stringify(body) : undefined,
    });
    // The wrapper reads who is signed in from the session at the moment of the call.
    session.user = user;
    const response = await handler(request, { params: Promise.resolve({ id: String(id) }) });
    const text = await response.text();
    return {
      status: response.status,
      json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
      requestId: response.headers.get("x-request-id"),
    };
  }

  /** `PUT /api/approvals/settings` as `user`, from the console's origin. */
  function putSetting(user: StaffUser, body: object) {
    session.user = user;
    const request = new Request("http://console.test/api/approvals/settings", {
      method: "PUT",
      headers: { origin: "http://console.test" },
      body: JSON.stringify(body),
    });
    return route(routes.setting)(request);
  }

  const transferId = () => bank.seed.networkTransfer;
  /** A userdata edit the maker asks for in production: held, with its request number. */
  async function heldUserdataEdit(userdata: Record<string, unknown> = { ticket: randomUUID() }) {
    session.user = staff.maker;
    const response = await callProxy("PATCH", `/network_transfer/${transferId()}`, { body: { userdata }, through: through() });
    expect(response.status, response.text).toBe(202);
    const id = (response.json as { approval: { id: number } }).approval.id;
    bank.recording.received.length = 0;
    return { id, userdata, response };
  }

  return {
    harness,
    db,
    state,
    staff,
    service: () => service,
    through,
    decide,
    putSetting,
    transferId,
    heldUserdataEdit,
    describeConnection,
  };
}
