import { randomBytes, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { StaffUser } from "@/lib/auth/staff-user";
import { credentialsActions, type CredentialsActionState } from "@/lib/credentials/actions";
import { loadSavedConnection } from "@/lib/credentials/store";
import { audited } from "@/lib/audit/trail";
import { permissionsOf } from "@/lib/permissions";
import { formOf, requireRole } from "@/tests/support/audit-records";
import { testDatabaseTargets } from "@/tests/support/databases";
import { fourEyesFixture } from "@/tests/support/four-eyes";
import { startProxyBank } from "@/tests/support/proxy-harness";
import type { ApprovalService } from "./service";
import { secretShown } from "./codes";
import { listChangeRequests } from "./store";

// Four-eyes on changes of bank credentials (docs/approvals.md): a production change waits for a second admin; the
// sandbox's is saved at once.

const bank = startProxyBank();
const key = randomBytes(32);

describe.each(testDatabaseTargets)("four-eyes on bank credentials, on $name", (target) => {
  const fixture = fourEyesFixture(bank, key, target);
  const { db, decide, describeConnection } = fixture;
  let service: ApprovalService;
  let approver: StaffUser;
  let admin: StaffUser;
  let secondAdmin: StaffUser;
  beforeAll(() => {
    service = fixture.service();
    ({ approver, admin, secondAdmin } = fixture.staff);
  });

  describe("bank credentials", () => {
    const idle: CredentialsActionState = { error: null, done: null };
    let actor: StaffUser;
    const actions = credentialsActions({
      requireUser: requireRole(() => actor),
      db: async () => db(),
      encryptionKey: () => key,
      describeConnection,
      audited: (entry, perform, options) => audited(db(), entry, perform, options),
      newRequestId: () => `req_${randomUUID()}`,
      changed: () => undefined,
      allowProductionHttp: true,
      approvals: { required: (environment) => service.required(environment), holdCredentials: (...args) => service.holdCredentials(...args) },
    });

    it("a production credentials change waits for another admin; an operations approver is refused; then saved", async () => {
      const token = `bearer-${randomUUID()}`;
      actor = admin;
      const state = await actions.saveBankCredentials(
        idle,
        formOf({ environment: "production", baseUrl: "http://127.0.0.1:9/", authType: "bearer", token }),
      );
      expect(state).toEqual({
        error: null,
        done: expect.stringContaining("Awaiting approval"),
        approval: { id: expect.any(Number), url: expect.any(String) },
      });
      expect(await loadSavedConnection(db(), "production", key)).toBeNull();
      const id = state.approval!.id;
      const [stored] = await db()
        .execute(sql`SELECT row_to_json(r)::text AS text FROM console.change_requests r WHERE id = ${id}`)
        .then((result) => result.rows as Array<{ text: string }>);
      expect(stored!.text).not.toContain(token);
      // Listed to admins, and to its maker; operations (no credentials:manage) never see it.
      const listed = async (user: StaffUser) =>
        (
          await listChangeRequests(db(), { status: "pending", environment: "production" }, { id: user.id, permissions: permissionsOf(user.role) })
        ).rows.map((row) => row.id);
      expect(await listed(secondAdmin)).toContain(id);
      expect(await listed(admin)).toContain(id);
      expect(await listed(approver)).not.toContain(id);
      expect((await decide(admin, id, "approve")).status).toBe(403);
      const operations = await decide(approver, id, "approve");
      expect(operations.status).toBe(403);
      expect((operations.json as { error: { message: string } }).error.message).toContain("credentials:manage");
      const approved = await decide(secondAdmin, id, "approve");
      expect(approved.status).toBe(200);
      expect(approved.json).toMatchObject({ outcome: "succeeded", payload: { authType: "bearer", token: secretShown } });
      const saved = await loadSavedConnection(db(), "production", key);
      expect(saved).toMatchObject({
        baseUrl: "http://127.0.0.1:9",
        auth: { type: "bearer", token },
        updatedBy: `${admin.email} (approved by ${secondAdmin.email})`,
      });
    });

    it("in the sandbox (off by default) it is saved at once", async () => {
      actor = admin;
      const state = await actions.saveBankCredentials(
        idle,
        formOf({ environment: "sandbox", baseUrl: "http://127.0.0.1:9", authType: "bearer", token: "t0k3n-sandbox" }),
      );
      expect(state).toEqual({ error: null, done: "Saved the sandbox credentials" });
    });
  });
});
