import { randomBytes } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as schema from "@/lib/db/console-schema";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { markDeadLettered, markProcessed, storeNotification } from "./inbox";
import { purgeExpired } from "./retention";

// The inbox's retention (INDEX_INBOX_RETENTION_DAYS) on a real console database: settled notifications go once their
// days are over, dead letters included; one still waiting stays however old it is.

describe.each(testDatabaseTargets)("the inbox's retention on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  const receive = async (daysAgo: number) => {
    const id = `ach_retention_${randomBytes(4).toString("hex")}`;
    const row = await storeNotification(database.db, "sandbox", {
      event: "ach.update",
      op: "update",
      id,
      url: `http://bank.test/ach/${id}`,
      resource: "ach",
    });
    await database.db
      .update(schema.bankEventInbox)
      .set({ receivedAt: new Date(Date.now() - daysAgo * 86_400_000) })
      .where(eq(schema.bankEventInbox.id, row.id));
    return row.id;
  };

  it("deletes processed notifications and dead letters older than the inbox's days, and never one still waiting", async () => {
    const old = { processed: await receive(31), deadLetter: await receive(31), waiting: await receive(400) };
    const recent = { processed: await receive(29), deadLetter: await receive(29) };
    for (const id of [old.processed, recent.processed]) await markProcessed(database.db, id, "changed");
    for (const id of [old.deadLetter, recent.deadLetter]) await markDeadLettered(database.db, id, "refused");

    await purgeExpired(database.db, { versionDays: 2557, inboxDays: 30 });

    const all = [...Object.values(old), ...Object.values(recent)];
    const left = await database.db.select({ id: schema.bankEventInbox.id }).from(schema.bankEventInbox).where(inArray(schema.bankEventInbox.id, all));
    expect(left.map((row) => row.id).sort((a, b) => a - b)).toEqual([old.waiting, recent.processed, recent.deadLetter].sort((a, b) => a - b));
  });
});
