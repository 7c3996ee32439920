import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Environment } from "@/lib/credentials/environments";
import * as schema from "@/lib/db/console-schema";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { eventRowFor, everyEvent, eventsQueryOf, listEvents, type EventRow } from "./events-list";
import type { EventsFilter } from "./events-list-input";
import { markDeadLettered, markForRetry, markProcessed, storeNotification } from "./inbox";

// The events page's reads, over inbox rows made the way the receiver and the worker make them.

const uniqueId = (prefix: string) => `${prefix}_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
const notification = (id: string, op: "create" | "update" = "update") => ({
  event: `ach.${op}`,
  op,
  id,
  url: `http://bank.test/ach/${id}`,
  resource: "ach" as const,
});

describe.each(testDatabaseTargets)("the events list on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  const receive = (id: string, op: "create" | "update" = "update", environment: Environment = "sandbox") =>
    storeNotification(database.db, environment, notification(id, op));
  const list = (filter: Partial<EventsFilter>, page: { limit: number; after?: number } = { limit: 100 }) =>
    listEvents(database.db, { environment: "sandbox", ...filter }, page);
  /** Places an event at a known time (the receiver stamps `now()`). */
  const receivedAt = (id: number, at: string) =>
    database.db
      .update(schema.bankEventInbox)
      .set({ receivedAt: new Date(at) })
      .where(eq(schema.bankEventInbox.id, id));

  it("shows each notification once with its deliveries, attempts and what processing found, newest first", async () => {
    const object = uniqueId("ach");
    const created = await receive(object, "create");
    await receive(object, "create");
    const updated = await receive(object, "update");
    await markProcessed(database.db, created.id, "changed");

    const rows = await list({ object });
    expect(rows.map((row) => row.id)).toEqual([updated.id, created.id]);
    expect(rows[1]).toMatchObject({
      environment: "sandbox",
      event: "ach.create",
      resource: "ach",
      objectId: object,
      deliveries: 2,
      outcome: "changed",
      error: null,
      nextAttemptAt: null,
    });
    expect(rows[1]!.processedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(rows[1]!.lastReceivedAt >= rows[1]!.receivedAt).toBe(true);
    expect(rows[0]).toMatchObject({ event: "ach.update", deliveries: 1, attempts: 0, outcome: "pending", processedAt: null });
  });

  it("shows an event waiting after a failed fetch with its error, and filters by every outcome", async () => {
    const object = uniqueId("ach");
    const ids = { pending: (await receive(object, "create")).id, error: (await receive(object)).id };
    await database.db.update(schema.bankEventInbox).set({ attempts: 1 }).where(eq(schema.bankEventInbox.id, ids.error));
    await markForRetry(database.db, { id: ids.error, attempts: 1 }, "bank answered 503");
    const processed = { changed: uniqueId("ach"), unchanged: uniqueId("ach"), older: uniqueId("ach"), gone: uniqueId("ach") };
    for (const [outcome, id] of Object.entries(processed)) {
      const { id: rowId } = await receive(id);
      await markProcessed(database.db, rowId, outcome as keyof typeof processed);
    }
    const deadLetter = uniqueId("ach");
    await markDeadLettered(database.db, (await receive(deadLetter)).id, "not processed after 40 attempts: bank answered 503");

    expect(await list({ object, outcome: "error" })).toEqual([
      expect.objectContaining({ id: ids.error, outcome: "error", error: "bank answered 503", attempts: 1 }),
    ]);
    expect((await list({ object, outcome: "error" }))[0]!.nextAttemptAt).not.toBeNull();
    expect((await list({ object, outcome: "pending" })).map((row) => row.id)).toEqual([ids.pending]);
    for (const [outcome, id] of Object.entries(processed)) {
      expect(await list({ object: id, outcome: outcome as keyof typeof processed })).toEqual([expect.objectContaining({ objectId: id, outcome })]);
      expect(await list({ object: id, outcome: "pending" })).toEqual([]);
    }
    expect(await list({ object: deadLetter, outcome: "dead_letter" })).toEqual([
      expect.objectContaining({ outcome: "dead_letter", error: "not processed after 40 attempts: bank answered 503", nextAttemptAt: null }),
    ]);
    expect(await list({ object: deadLetter, outcome: "error" })).toEqual([]);
  });

  it("narrows by environment, event, object and time range", async () => {
    const object = uniqueId("ach");
    const early = await receive(object, "create");
    const late = await receive(object, "update");
    const elsewhere = await receive(object, "update", "production");
    await receivedAt(early.id, "2031-05-04T10:15:30.250Z");
    await receivedAt(late.id, "2031-05-06T23:59:59.900Z");
    await receivedAt(elsewhere.id, "2031-05-05T00:00:00Z");

    const ids = async (filter: Partial<EventsFilter>) => (await list({ object, ...filter })).map((row) => row.id);
    expect(await ids({})).toEqual([late.id, early.id]);
    expect(await ids({ environment: "production" })).toEqual([elsewhere.id]);
    expect(await ids({ event: "ach.create" })).toEqual([early.id]);
    expect(await list({ object: uniqueId("ach") })).toEqual([]);
    // Bounds are inclusive: a date covers its day, a minute its minute, a second its second.
    expect(await ids({ from: "2031-05-04", to: "2031-05-04" })).toEqual([early.id]);
    expect(await ids({ from: "2031-05-04T10:15", to: "2031-05-04T10:15" })).toEqual([early.id]);
    expect(await ids({ from: "2031-05-04T10:15:31" })).toEqual([late.id]);
    expect(await ids({ to: "2031-05-04T10:15:30" })).toEqual([early.id]);
    expect(await ids({ to: "2031-05-04T10:14" })).toEqual([]);
    expect(await ids({ from: "2031-05-05", to: "2031-05-06" })).toEqual([late.id]);
  });

  it("pages by keyset without skipping or repeating an event, even when new ones arrive meanwhile", async () => {
    const objects = Array.from({ length: 7 }, () => uniqueId("ach"));
    const stored: number[] = [];
    for (const [index, object] of objects.entries()) {
      const { id } = await receive(object);
      stored.push(id);
      // The first two received in the same instant: the id breaks the tie.
      await receivedAt(id, `2031-06-01T00:00:0${Math.max(1, index)}Z`);
    }
    const mine = (rows: { id: number; objectId: string }[]) => rows.filter((row) => objects.includes(row.objectId)).map((row) => row.id);

    const seen: number[] = [];
    let after: number | undefined;
    for (let page = 0; page < 20; page++) {
      const rows = await list({ from: "2031-06-01" }, { limit: 3, after });
      seen.push(...mine(rows));
      if (page === 0) {
        // Newer than every page: it lands before the cursor, so the next pages do not move.
        const arrived = await receive(uniqueId("ach"));
        await receivedAt(arrived.id, "2031-06-02T00:00:00Z");
      }
      if (rows.length < 3) break;
      after = rows.at(-1)!.id;
    }
    expect(seen).toEqual(stored.toReversed());

    const exported: number[] = [];
    for await (const row of everyEvent(database.db, { environment: "sandbox", from: "2031-06-01" }, 2)) exported.push(row.id);
    expect(exported).toHaveLength(stored.length + 1);
    expect(exported.slice(1)).toEqual(stored.toReversed());
  });

  it("finds an object's events and a page of the newest through indexes rather than by reading every event", async () => {
    const client = await database.pool.connect();
    try {
      // Few rows: the planner would scan the table; forbidding that shows indexes can answer the query.
      await client.query("SET enable_seqscan = off");
      const plan = async (filter: EventsFilter) => {
        const { sql: text, params } = eventsQueryOf(database.db, filter, { limit: 51, after: 1 }).toSQL();
        const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN ${text}`, params);
        return rows.map((row) => row["QUERY PLAN"]).join("\n");
      };
      expect(await plan({ environment: "sandbox", object: "ach_indexed", outcome: "changed" })).not.toContain("Seq Scan");
      const newest = await plan({ environment: "sandbox" });
      expect(newest).toContain("bank_event_inbox_received_idx");
      expect(newest).not.toContain("Sort");
    } finally {
      await client.query("RESET enable_seqscan");
      client.release();
    }
  });

  it("gives an unknown cursor an empty page rather than an error", async () => {
    const [{ max }] = (await database.db.execute<{ max: string | null }>(sql`SELECT max(id)::text AS max FROM ${schema.bankEventInbox}`)).rows as [
      { max: string | null },
    ];
    expect(await list({}, { limit: 10, after: Number(max ?? 0) + 1000 })).toEqual([]);
  });
});

describe("an event row as each role sees it", () => {
  const row: EventRow = {
    id: 1,
    environment: "sandbox",
    event: "ach.update",
    resource: "ach",
    objectId: "ach_1",
    receivedAt: "2026-11-25T10:00:00.000Z",
    lastReceivedAt: "2026-11-25T10:00:00.000Z",
    deliveries: 1,
    attempts: 2,
    outcome: "error",
    error: "get_ach (GET /ach/ach_1): the bank could not be reached (ECONNREFUSED: connect ECONNREFUSED 10.0.0.7:4010)",
    processedAt: null,
    nextAttemptAt: null,
  };

  it("shows the fetch error's text only to roles with audit:read; others are told the bank could not be read", () => {
    for (const role of ["viewer", "operations"] as const) expect(eventRowFor(role, row)).toEqual({ ...row, error: "the bank could not be read" });
    for (const role of ["compliance", "admin"] as const) expect(eventRowFor(role, row)).toBe(row);
    expect(eventRowFor("viewer", { ...row, error: null }).error).toBeNull();
  });
});
