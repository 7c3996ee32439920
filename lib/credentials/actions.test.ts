import { randomBytes, randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { audited } from "@/lib/audit/trail";
import { createStaff } from "@/lib/auth/staff-users";
import type { StaffUser } from "@/lib/auth/staff-user";
import { connectDatabase } from "@/lib/db/connect";
import * as schema from "@/lib/db/console-schema";
import { auditRecordsOf, expectedAuditRecord, formOf, Refused, requireRole } from "@/tests/support/audit-records";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { credentialsActions, type CredentialsActionState } from "./actions";
import type { Environment } from "./environments";
import { MissingEncryptionKeyError } from "./seal";
import { loadSavedConnection, summarize } from "./store";

// The admin's bank-credentials server actions against a real console database and audit trail. Given: the session
// (`requireUser` refuses a role without the permission, as the real one does with a 403) and the encryption key.

const idle: CredentialsActionState = { error: null, done: null };
const secret = `secret-${randomUUID()}`;
const basicForm = { environment: "production", baseUrl: "https://bank.example/api/", authType: "basic", keyId: "key_prod", secret };

describe.each(testDatabaseTargets)("bank credentials server actions on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  const key = randomBytes(32);
  let actor: StaffUser;
  let requestId: string;
  let keyConfigured: boolean;
  let changeDb: () => typeof database.db;

  const describeConnection = async (environment: Environment) => {
    const saved = await loadSavedConnection(database.db, environment, key);
    return summarize(saved, environment, "saved", saved ?? undefined);
  };
  const actions = credentialsActions({
    requireUser: requireRole(() => actor),
    db: async () => changeDb(),
    encryptionKey: () => {
      if (!keyConfigured) throw new MissingEncryptionKeyError();
      return key;
    },
    describeConnection,
    audited: (entry, perform, options) => audited(database.db, entry, perform, options),
    newRequestId: () => requestId,
    changed: () => undefined,
  });

  const recordsOfThisRequest = () => auditRecordsOf(database, requestId);
  const expectedRecord = (fields: Parameters<typeof expectedAuditRecord>[1]) =>
    expectedAuditRecord({ actor, environment: "production", requestId }, fields);
  const notConfigured = summarize(null, "production", "saved");

  beforeEach(async () => {
    actor = await createStaff(database.db, { email: `${randomUUID()}@bank.example`, name: "Admin", role: "admin", password: null });
    keyConfigured = true;
    changeDb = () => database.db;
    // Every test starts with nothing saved for production (the clearing is recorded under a request id of its own).
    requestId = `req_setup_${randomUUID()}`;
    await actions.clearBankCredentials(idle, formOf({ environment: "production" }));
    requestId = `req_${randomUUID()}`;
  });

  it("saves credentials sealed, and records the summaries before and after without the secret", async () => {
    expect(await actions.saveBankCredentials(idle, formOf(basicForm))).toEqual({ error: null, done: "Saved the production credentials" });
    expect(await loadSavedConnection(database.db, "production", key)).toMatchObject({
      baseUrl: "https://bank.example/api",
      auth: { type: "basic", keyId: "key_prod", secret },
      updatedBy: actor.email,
    });
    const after = await describeConnection("production");
    expect(after).toMatchObject({
      source: "saved",
      baseUrl: "https://bank.example/api",
      authType: "basic",
      keyId: "key_prod",
      updatedBy: actor.email,
    });
    const records = await recordsOfThisRequest();
    expect(records).toEqual([
      expectedRecord({ action: "credentials.save", targetId: "production", before: notConfigured, after, outcome: "succeeded", error: null }),
    ]);
    expect(JSON.stringify(records)).not.toContain(secret);
  });

  it("clears saved credentials and records the saved summary as before", async () => {
    await actions.saveBankCredentials(
      idle,
      formOf({ environment: "production", baseUrl: "https://bank.example", authType: "bearer", token: secret }),
    );
    const before = await describeConnection("production");
    requestId = `req_${randomUUID()}`;
    const result = await actions.clearBankCredentials(idle, formOf({ environment: "production" }));
    expect(result).toEqual({ error: null, done: "Removed the saved production credentials; the environment variables apply again" });
    expect(await loadSavedConnection(database.db, "production", key)).toBeNull();
    expect(await recordsOfThisRequest()).toEqual([
      expectedRecord({ action: "credentials.clear", targetId: "production", before, after: notConfigured, outcome: "succeeded", error: null }),
    ]);
  });

  it.each([
    ["save", () => actions.saveBankCredentials(idle, formOf(basicForm)), "credentials.save"],
    ["clear", () => actions.clearBankCredentials(idle, formOf({ environment: "production" })), "credentials.clear"],
  ] as const)("records a failed %s when the change itself fails", async (_name, run, action) => {
    const broken = connectDatabase(database.pool.options.connectionString!, schema);
    await broken.close();
    changeDb = () => broken.db;
    await expect(run()).rejects.toThrow();
    expect(await recordsOfThisRequest()).toEqual([
      expectedRecord({ action, targetId: "production", before: notConfigured, after: null, outcome: "failed", error: expect.any(String) }),
    ]);
  });

  it("says the encryption key is missing, and neither saves nor records anything", async () => {
    keyConfigured = false;
    expect(await actions.saveBankCredentials(idle, formOf(basicForm))).toEqual({ error: new MissingEncryptionKeyError().message, done: null });
    keyConfigured = true;
    expect(await loadSavedConnection(database.db, "production", key)).toBeNull();
    expect(await recordsOfThisRequest()).toEqual([]);
  });

  it.each([
    { fields: { ...basicForm, baseUrl: "ftp://bank.example" }, field: "baseUrl:" },
    { fields: { ...basicForm, baseUrl: "http://10.0.0.5:8080/api" }, field: "baseUrl: the production bank is reached over https only" },
    { fields: { ...basicForm, secret: "" }, field: "secret:" },
    { fields: { ...basicForm, environment: "staging" }, field: "environment:" },
    { fields: { environment: "production", baseUrl: "https://bank.example", authType: "bearer" }, field: "token:" },
  ])("refuses bad input naming $field, and records nothing", async ({ fields, field }) => {
    expect(await actions.saveBankCredentials(idle, formOf(fields))).toEqual({ error: expect.stringContaining(field), done: null });
    expect(await recordsOfThisRequest()).toEqual([]);
  });

  it("refuses to clear an unknown environment", async () => {
    expect(await actions.clearBankCredentials(idle, formOf({ environment: "staging" }))).toEqual({
      error: "environment: expected sandbox or production",
      done: null,
    });
  });

  it.each(["operations", "compliance", "viewer"] as const)("is refused to %s: nothing is saved or recorded", async (role) => {
    actor = await createStaff(database.db, { email: `${randomUUID()}@bank.example`, name: role, role, password: null });
    await expect(actions.saveBankCredentials(idle, formOf(basicForm))).rejects.toThrow(Refused);
    await expect(actions.clearBankCredentials(idle, formOf({ environment: "production" }))).rejects.toThrow(Refused);
    expect(await loadSavedConnection(database.db, "production", key)).toBeNull();
    expect(await recordsOfThisRequest()).toEqual([]);
  });
});
