import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { recordAuditEvent, type AuditRecord } from "@/lib/audit/trail";
import type { ListedResource } from "@/lib/contract/operations";
import type { Environment } from "@/lib/credentials/environments";
import type { Role } from "@/lib/permissions";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { markProcessed, storeNotification } from "./inbox";
import { recordObservations, type ObservationSource } from "./store";
import { mergeTimeline, readTimeline, type AuditEntry, type EventEntry, type VersionEntry } from "./timeline";

// The timeline of one bank object, written the way the index and the console write it (recordObservations,
// storeNotification, the audit trail) into a real console database, and read back per role.

const unique = (prefix: string) => `${prefix}_${randomBytes(6).toString("hex")}`;
const actor = { id: "usr_operations", email: "operations@demo.bank", role: "operations" as const };
/** Waits for the next whole second: audit records are stamped to the second, so what follows sorts after them. */
const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 10));

describe.each(testDatabaseTargets)("the timeline of a bank object on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  const observe = (
    resource: ListedResource,
    id: string,
    state: Record<string, unknown> | null,
    from: ObservationSource,
    environment: Environment = "sandbox",
  ) => recordObservations(database.db, environment, [{ resource, id, state }], from);
  const notify = async (resource: ListedResource, op: "create" | "update", id: string) =>
    (await storeNotification(database.db, "sandbox", { event: `${resource}.${op}`, op, id, url: `http://bank.test/${resource}/${id}`, resource })).id;
  const read = (resource: ListedResource, objectId: string, role: Role, limit?: number) =>
    readTimeline(database.db, { environment: "sandbox", resource, objectId, role, limit });

  it("merges versions, notifications and audit records newest first, each status change with its changed fields", async () => {
    const id = unique("ach");
    const ach = (status: string, second: number, error: string | null = null) => ({
      id,
      status,
      error,
      amount: "120.15",
      updated_at: `2025-01-01T00:00:0${second}Z`,
    });
    await recordAuditEvent(database.db, { actor, environment: "sandbox", action: "ach.note", targetId: id, requestId: unique("req") });
    await nextSecond();
    await observe("ach", id, ach("pending", 1), { source: "backfill" });
    const sentEvent = await notify("ach", "update", id);
    await observe("ach", id, ach("sent", 2), { source: "event", eventId: sentEvent });
    await markProcessed(database.db, sentEvent, "changed");
    const returnedEvent = await notify("ach", "update", id);
    await notify("ach", "update", id); // delivered twice before processing: one row, two deliveries
    await observe("ach", id, ach("returned", 3, "R03 No Account/Unable to Locate Account"), { source: "event", eventId: returnedEvent });
    await markProcessed(database.db, returnedEvent, "changed");

    const timeline = await read("ach", id, "viewer");
    expect(timeline.entries.map((entry) => entry.kind)).toEqual(["version", "event", "version", "event", "version", "audit"]);
    const [returned, returnedNotice, sent, sentNotice, first] = timeline.entries as [
      VersionEntry,
      EventEntry,
      VersionEntry,
      EventEntry,
      VersionEntry,
    ];
    expect(returned).toMatchObject({
      version: 3,
      source: "event",
      status: { before: "sent", after: "returned" },
      error: "R03 No Account/Unable to Locate Account",
      changes: [
        { path: "error", kind: "changed", before: null, after: "R03 No Account/Unable to Locate Account" },
        { path: "status", kind: "changed", before: "sent", after: "returned" },
      ],
    });
    expect(returnedNotice).toMatchObject({ event: "ach.update", deliveries: 2, state: "processed", outcome: "changed", version: 3 });
    expect(sent).toMatchObject({
      version: 2,
      status: { before: "pending", after: "sent" },
      changes: [{ path: "status", before: "pending", after: "sent" }],
    });
    expect(sentNotice).toMatchObject({ deliveries: 1, version: 2 });
    expect(first).toMatchObject({ version: 1, first: true, source: "backfill", status: { before: null, after: "pending" }, changes: [] });
    const times = timeline.entries.map((entry) => Date.parse(entry.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(timeline.truncated).toBe(false);
  });

  it("masks both sides of every change for the viewer, and hides the keys inside a masked value too", async () => {
    const id = unique("person_application");
    const application = (email: string, userdata: Record<string, unknown>, second: number) => ({
      id,
      first_name: "Ada",
      email_address: email,
      date_of_birth: "1990-04-01",
      userdata,
      updated_at: `2025-01-01T00:00:0${second}Z`,
    });
    await observe("person_application", id, application("ada.lovelace@example.com", {}, 1), { source: "backfill" });
    await observe("person_application", id, application("countess@analytical.example", { case_note: "called 555-0100" }, 2), { source: "sweep" });

    for (const role of ["viewer", "compliance", "admin"] as const) {
      const timeline = await read("person_application", id, role);
      const [change] = timeline.entries as [VersionEntry];
      expect(change.changes).toEqual([
        { path: "email_address", kind: "changed", before: "a***@example.com", after: "c***@analytical.example" },
        { path: "userdata", kind: "changed", before: "[masked]", after: "[masked]" },
      ]);
      const shown = JSON.stringify(timeline);
      for (const secret of ["ada.lovelace", "countess", "1990-04-01", "case_note", "555-0100"]) expect(shown).not.toContain(secret);
    }
  });

  it("shows who did what to every role, and the audit record's before and after only to roles with audit:read", async () => {
    const id = unique("network_transfer");
    await recordAuditEvent(database.db, {
      actor,
      environment: "sandbox",
      action: "network_transfer.userdata.update",
      targetId: id,
      requestId: unique("req"),
      before: { userdata: { ticket: "OPS-1" } },
      after: { userdata: { ticket: "OPS-2" } },
    });
    const who = { kind: "audit", action: "network_transfer.userdata.update", actorEmail: actor.email, role: "operations", outcome: "succeeded" };
    for (const role of ["viewer", "operations"] as const) {
      const timeline = await read("network_transfer", id, role);
      expect(timeline.showsAuditChanges).toBe(false);
      expect(timeline.entries).toEqual([expect.objectContaining({ ...who, changes: null })]);
      expect(JSON.stringify(timeline)).not.toContain("OPS-");
    }
    for (const role of ["compliance", "admin"] as const) {
      const timeline = await read("network_transfer", id, role);
      expect(timeline.showsAuditChanges).toBe(true);
      expect((timeline.entries[0] as AuditEntry).changes).toEqual([{ path: "userdata.ticket", kind: "changed", before: "OPS-1", after: "OPS-2" }]);
    }
  });

  it("shows in a wallet token's timeline the simulation run that made it, found through its card and creation time", async () => {
    const token = (card: string, createdAt: Date) => ({
      id: unique("dwt"),
      card_id: card,
      status: "active",
      token_requestor_name: "GOOGLE_PAY",
      created_at: createdAt.toISOString().replace(/\.\d{3}Z$/, "Z"),
      updated_at: createdAt.toISOString().replace(/\.\d{3}Z$/, "Z"),
    });
    const simulate = (card: string, environment: Environment = "sandbox") =>
      recordAuditEvent(database.db, { actor, environment, action: "simulation.run", targetId: card, requestId: unique("req") });
    const [card, otherCard, productionCard] = [unique("card"), unique("card"), unique("card")];
    await simulate(card);
    await simulate(productionCard, "production");
    const made = token(card, new Date(Date.now() + 500));
    const later = token(card, new Date(Date.now() + 2 * 60_000));
    const elsewhere = token(otherCard, new Date());
    const inProduction = token(productionCard, new Date());
    for (const state of [made, later, elsewhere, inProduction]) await observe("digital_wallet_token", state.id, state, { source: "sweep" });

    const timeline = await read("digital_wallet_token", made.id, "operations");
    expect(timeline.entries.filter((entry) => entry.kind === "audit")).toEqual([
      expect.objectContaining({ action: "simulation.run", actorEmail: actor.email, role: "operations", outcome: "succeeded" }),
    ]);
    // A token made long after the run, on another card, or a run in another environment: no run is named.
    for (const other of [later, elsewhere, inProduction]) {
      expect((await read("digital_wallet_token", other.id, "operations")).entries.filter((entry) => entry.kind === "audit")).toEqual([]);
    }
    // The card's own timeline has the run as always (the record's target).
    expect((await read("card", card, "viewer")).entries).toEqual([expect.objectContaining({ kind: "audit", action: "simulation.run" })]);
  });

  it("shows a reveal's reason and the fields it showed to roles with audit:read only", async () => {
    const id = unique("person_application");
    await recordAuditEvent(database.db, {
      actor,
      environment: "sandbox",
      action: "person_application.reveal",
      targetId: id,
      requestId: unique("req"),
      before: null,
      after: { fields: ["date_of_birth", "email_address"], reason: "KYC-77" },
    });
    expect(((await read("person_application", id, "viewer")).entries[0] as AuditEntry).reveal).toBeNull();
    expect(((await read("person_application", id, "compliance")).entries[0] as AuditEntry).reveal).toEqual({
      fields: ["date_of_birth", "email_address"],
      reason: "KYC-77",
    });
  });

  it("says how far back the index has watched the object, and plainly when it has not seen it at all", async () => {
    const id = unique("network_transfer");
    const never = await read("network_transfer", id, "viewer");
    expect(never).toMatchObject({ watched: null, entries: [], truncated: false });

    await observe("network_transfer", id, { id, status: "pending", updated_at: "2025-01-01T00:00:01Z" }, { source: "backfill" });
    await observe("network_transfer", id, null, { source: "sweep" });
    const [kept] = await database.db.query.bankObjects.findMany({
      where: (objects, { and, eq }) => and(eq(objects.environment, "sandbox"), eq(objects.id, id)),
    });
    const timeline = await read("network_transfer", id, "viewer");
    expect(timeline.watched).toEqual({
      since: kept!.firstSeenAt.toISOString(),
      firstSeenBy: "backfill",
      goneAt: kept!.goneAt!.toISOString(),
      earlierVersionsPurged: false,
    });
    expect(timeline.entries[0]).toMatchObject({ kind: "version", version: 2, gone: true, status: null, changes: [] });
  });

  it("keeps to the environment asked for, and to the newest entries when there are more than the limit", async () => {
    const id = unique("ach");
    for (let second = 1; second <= 4; second++)
      await observe("ach", id, { id, status: "pending", amount: `${second}.00`, updated_at: `2025-01-01T00:00:0${second}Z` }, { source: "sweep" });
    await observe("ach", id, { id, status: "sent", updated_at: "2025-01-01T00:00:09Z" }, { source: "backfill" }, "production");
    // The same id's console action in the other environment is about another object.
    await recordAuditEvent(database.db, { actor, environment: "production", action: "ach.userdata.update", targetId: id, requestId: unique("req") });

    const timeline = await read("ach", id, "viewer", 2);
    expect(timeline.entries.map((entry) => (entry as VersionEntry).version)).toEqual([4, 3]);
    expect(timeline.truncated).toBe(true);
    // The oldest shown version still has its before, read from the version just past the limit.
    expect((timeline.entries[1] as VersionEntry).changes).toEqual([{ path: "amount", kind: "changed", before: "2.00", after: "3.00" }]);
    expect(timeline.watched?.firstSeenBy).toBeNull();
    expect(JSON.stringify(timeline)).not.toContain("sent");
    expect((await read("ach", id, "admin")).entries.filter((entry) => entry.kind === "audit")).toEqual([]);
  });
});

describe("merging the timeline", () => {
  const at = "2025-01-01T00:00:05.000Z";
  const audit: AuditRecord = {
    id: 1,
    at: "2025-01-01T00:00:05Z",
    actorId: "usr",
    actorEmail: "ops@demo.bank",
    role: "operations",
    environment: "sandbox",
    action: "ach.cancel",
    targetId: "ach_1",
    before: null,
    after: null,
    outcome: "succeeded",
    error: null,
    requestId: "req",
  };
  const version = {
    id: 7,
    environment: "sandbox",
    resource: "ach",
    objectId: "ach_1",
    version: 1,
    state: { id: "ach_1", status: "canceled" },
    changes: [],
    seenAt: new Date(at),
    source: "event",
    eventId: 3,
  } as const;
  const event = {
    id: 3,
    environment: "sandbox",
    event: "ach.update",
    op: "update",
    resource: "ach",
    objectId: "ach_1",
    url: "http://bank/ach/ach_1",
    receivedAt: new Date(at),
    lastReceivedAt: new Date(at),
    deliveries: 1,
    state: "processed",
    outcome: "changed",
    attempts: 1,
    nextAttemptAt: new Date(at),
    leaseUntil: null,
    error: null,
    processedAt: new Date(at),
  } as const;

  it("tells roles without audit:read that a console action or a fetch failed, never the bank's error text", () => {
    const bankError = "get_ach (GET /ach/ach_1): the bank could not be reached (ECONNREFUSED: connect ECONNREFUSED 10.0.0.7:3000)";
    const failedAudit = { ...audit, outcome: "failed" as const, error: bankError };
    const pendingEvent = { ...event, state: "pending" as const, outcome: null, error: bankError };
    const errors = (role: Role) =>
      mergeTimeline({ resource: "ach", versions: [], events: [pendingEvent], audits: [failedAudit], object: null }, role, 10).entries.map(
        (entry) => (entry as AuditEntry | EventEntry).error,
      );
    for (const role of ["viewer", "operations"] as const)
      expect(errors(role)).toEqual(["the bank could not be read", "Failed; the reason is in the audit log."]);
    for (const role of ["compliance", "admin"] as const) expect(errors(role)).toEqual([bankError, bankError]);
  });

  it("leaves the userdata editor's read out of the timeline for roles without audit:read, and keeps it for those with it", () => {
    const read = { ...audit, id: 2, action: "ach.userdata.read", after: { userdata: { ticket: "T-1" }, updated_at: at } };
    const actions = (role: Role) =>
      mergeTimeline({ resource: "ach", versions: [], events: [], audits: [read, audit], object: null }, role, 10).entries.map(
        (entry) => (entry as AuditEntry).action,
      );
    for (const role of ["viewer", "operations"] as const) expect(actions(role)).toEqual(["ach.cancel"]);
    for (const role of ["compliance", "admin"] as const) expect(actions(role)).toEqual(["ach.userdata.read", "ach.cancel"]);
  });

  it("orders entries of one instant as their causes run, newest first: the version found, the event, the console's action", () => {
    const timeline = mergeTimeline({ resource: "ach", versions: [version], events: [event], audits: [audit], object: null }, "viewer", 10);
    expect(timeline.entries.map((entry) => entry.kind)).toEqual(["version", "event", "audit"]);
  });
});
