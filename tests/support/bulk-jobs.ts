import { randomUUID } from "node:crypto";
import { afterEach, beforeAll, expect } from "vitest";
import { bankProxyResolver, type BankProxy } from "@/lib/api/bank-proxy";
import { createApiRoute, type RouteDefinition } from "@/lib/api/route";
import { approvalService, type ApprovalService } from "@/lib/approvals/service";
import type { StaffUser } from "@/lib/auth/staff-user";
import { createStaff, findStaffByEmail, findStaffById } from "@/lib/auth/staff-users";
import type { BulkSendDependencies } from "@/lib/bulk/actions";
import type { BulkJobView } from "@/lib/bulk/codes";
import { bulkRoutes } from "@/lib/bulk/routes";
import { startBulkRunner, type BulkRunner } from "@/lib/bulk/runner";
import { bulkService, type BulkService } from "@/lib/bulk/service";
import { createLogger } from "@/lib/log";
import type { TestDatabaseTarget } from "./databases";
import { bankKey, proxyHarness, startProxyBank, type ProxyBank } from "./proxy-harness";
import { readUntil } from "./sandbox-bank";

// Bulk actions (docs/console-actions.md, "Bulk actions") against the real sandbox bank behind the recording hop, which
// shows every request the console sent, and a real console database on every target. The routes are called through
// the one route wrapper; only who is signed in is given. A runner is started and stopped by each test, as a console
// process would start and stop one.

export const silent = createLogger({ level: "silent" });

/**
 * The sandbox bank for this file with at least `count` network transfers: the demo seed's 150, and more made through
 * its control API. `transferIds` holds the first `count` in the bank's order once it is up.
 */
export function bankWithTransfers(count: number): { bank: ProxyBank; transferIds: string[] } {
  const bank = startProxyBank();
  const transferIds: string[] = [];
  beforeAll(async () => {
    const auth = `Basic ${Buffer.from(`${bankKey.id}:${bankKey.secret}`).toString("base64")}`;
    // Read directly (its page_next names the recording hop, so the cursor is carried over by hand).
    const listed = async () => {
      const ids: string[] = [];
      for (let cursor: string | undefined; ids.length < count;) {
        const page = await bank.direct.list_network_transfer(cursor ? { page_size: 100, page_cursor: cursor } : { page_size: 100 });
        ids.push(...page.data.map((row) => row.id));
        if (!page.page_next) break;
        cursor = new URL(page.page_next).searchParams.get("page_cursor")!;
      }
      return ids;
    };
    const missing = count - (await listed()).length;
    for (let created = 0; created < missing; created++) {
      const answer = await fetch(`${bank.recording.url}/sandbox/network_transfer`, {
        method: "POST",
        headers: { authorization: auth, "content-type": "application/json" },
        body: JSON.stringify({ amount: "12.00" }),
      });
      expect(answer.status).toBe(201);
    }
    transferIds.push(...(await listed()).slice(0, count));
    expect(transferIds).toHaveLength(count);
  }, 120_000);
  return { bank, transferIds };
}

export type BulkStaff = Record<"maker" | "approver" | "viewer" | "demoted" | "reviewer" | "otherReviewer", StaffUser>;
export type BulkAnswer = { status: number; json: BulkJobView & { error?: { code: string; message: string } } };

/**
 * The bulk service, its routes, four-eyes approvals and the bank proxy over `bank`, on a fresh console database of
 * `target`, with six staff members: a maker and an approver (operations), a viewer, an operations member a test may
 * demote, and two compliance reviewers. Runners a test starts are stopped after it.
 */
export function bulkJobsKit(bank: ProxyBank, target: TestDatabaseTarget) {
  const harness = proxyHarness(bank, target);
  const { session, sentToBank } = harness;
  const db = () => harness.database.db;
  const staff = {} as BulkStaff;
  const wired = {} as { proxy: BankProxy; approvals: ApprovalService; service: BulkService };
  const runners: BulkRunner[] = [];

  const sending = (): BulkSendDependencies => ({
    db: async () => db(),
    bankClient: harness.dependencies().bankClient,
    sendBankChange: (change, user, requestId) => wired.proxy.sendApproved(change, user, requestId),
    audited: harness.dependencies().audited,
  });

  beforeAll(async () => {
    const key = Buffer.alloc(32, 7);
    wired.approvals = approvalService({
      db: async () => db(),
      audited: harness.dependencies().audited,
      recordAuditEvent: harness.dependencies().recordAuditEvent,
      expiryMs: () => 3_600_000,
      encryptionKey: () => key,
      sendBank: (change, user, requestId) => wired.proxy.sendApproved(change, user, requestId),
      bankBefore: (change) => wired.proxy.heldBeforeNow(change),
      applyCredentials: async () => null,
      describeConnection: async () => null,
      startBulk: (jobId, approver) => wired.service.startApproved(jobId, approver),
    });
    wired.proxy = bankProxyResolver({ ...harness.dependencies(), approvals: wired.approvals });
    wired.service = bulkService({
      ...sending(),
      activeEnvironment: async () => session.environment,
      findUserByEmail: (email) => findStaffByEmail(db(), email),
      approvals: wired.approvals,
      wakeRunner: () => runners.forEach((runner) => runner.wake()),
    });
    const member = (role: StaffUser["role"]) => createStaff(db(), { email: `${randomUUID()}@bank.example`, name: role, role, password: null });
    [staff.maker, staff.approver, staff.viewer, staff.demoted, staff.reviewer, staff.otherReviewer] = await Promise.all([
      member("operations"),
      member("operations"),
      member("viewer"),
      member("operations"),
      member("compliance"),
      member("compliance"),
    ]);
  });

  /** A console process's runner; `onRowSettled` lets a test stop it halfway. */
  function startRunner(onRowSettled?: () => void) {
    const runner = startBulkRunner({ ...sending(), findUser: (id) => findStaffById(db(), id), log: silent, pollMs: 20, onRowSettled });
    runners.push(runner);
    return runner;
  }
  /** One runner stopped as a console process stops: the rows in flight finish, its lease is given back. */
  async function stopRunner(runner: BulkRunner) {
    runners.splice(runners.indexOf(runner), 1);
    await runner.stop();
  }
  async function stopRunners() {
    await Promise.all(runners.splice(0).map((runner) => runner.stop()));
  }
  afterEach(stopRunners);

  const route = createApiRoute({ currentUser: async () => session.user, log: silent });
  const routes = bulkRoutes(() => wired.service);

  async function call(user: StaffUser | null, definition: RouteDefinition, path: string, body?: unknown, params: Record<string, string> = {}) {
    session.user = user;
    const method = body === undefined && !path.endsWith("/retry") ? "GET" : "POST";
    const request = new Request(`http://console.test${path}`, {
      method,
      headers: { origin: "http://console.test", "content-type": "application/json" },
      body: method === "POST" ? JSON.stringify(body ?? {}) : undefined,
    });
    const response = await route(definition)(request, { params: Promise.resolve(params) });
    const text = await response.text();
    return { status: response.status, json: (text ? JSON.parse(text) : undefined) as BulkAnswer["json"] };
  }
  const ask = (user: StaffUser | null, body: unknown) => call(user, routes.create, "/api/bulk", body);
  const readJob = (user: StaffUser, id: string) => call(user, routes.read, `/api/bulk/${id}`, undefined, { id });
  const retry = (user: StaffUser, id: string) => call(user, routes.retry, `/api/bulk/${id}/retry`, undefined, { id });
  const settled = (user: StaffUser, id: string) =>
    readUntil(
      () => readJob(user, id),
      (answer) => answer.json.status === "done",
      60_000,
    );
  /** What the console sent the bank about these transfers: every request, or only the PATCHes. */
  const requestsFor = (ids: string[]) => sentToBank().filter((line) => ids.some((id) => line.endsWith(`/network_transfer/${id}`)));
  const patchesOf = (ids: string[]) => requestsFor(ids).filter((line) => line.startsWith("PATCH "));

  return {
    harness,
    session,
    sentToBank,
    db,
    staff,
    proxy: () => wired.proxy,
    approvals: () => wired.approvals,
    route,
    routes,
    call,
    ask,
    readJob,
    retry,
    settled,
    startRunner,
    stopRunner,
    stopRunners,
    requestsFor,
    patchesOf,
  };
}
