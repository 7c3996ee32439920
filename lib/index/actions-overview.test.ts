import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createBankClient } from "@/lib/bank/client";
import * as schema from "@/lib/db/console-schema";
import { testDatabaseTargets } from "@/tests/support/databases";
import { idle, indexActionsKey, indexActionsUnderTest, silentLog } from "@/tests/support/index-actions";
import { sandboxBankForFile } from "@/tests/support/sandbox-bank";
import { backfillLists, indexContents, subscriptionsView, walkIdleMs } from "./actions-overview";
import { runBackfill } from "./backfill";

// What the admin's index page shows (actions-overview.ts) as the admin's actions change it: the backfill's walks per
// list (started, repaired, refused while one runs, resumed once it stopped), the purge leaving nothing, and the
// subscriptions' state when the bank has no credentials or cannot be reached. The setting is
// tests/support/index-actions.ts: the sandbox bank and a receiver started for real, a real console database.

const fixture = sandboxBankForFile(indexActionsKey);

describe.each(testDatabaseTargets)("the index overview and its backfill and purge on $name", (target) => {
  const run = indexActionsUnderTest(target, () => fixture.bank);
  const { database, environment, actions, clientFor, form, recordsOfThisRequest, expectedRecord } = run;

  it("starts the backfill and walks every list again on a repair", async () => {
    await actions.purgeIndex(idle, form());
    run.requestId = `req_${randomUUID()}`;
    expect(await actions.startBackfill(idle, form({ mode: "resume" }))).toEqual({ error: null, done: "Backfill of sandbox started" });
    await Promise.all(run.walks);
    const walked = await backfillLists(database.db, environment);
    expect(walked.map((list) => list.walk)).toEqual(walked.map(() => "done"));
    const objects = walked.reduce((sum, list) => sum + list.objects, 0);
    expect(objects).toBeGreaterThan(0);
    expect((await indexContents(database.db, environment)).byResource.reduce((sum, row) => sum + row.objects, 0)).toBe(objects);
    expect(await recordsOfThisRequest()).toEqual([
      expectedRecord({
        action: "index.backfill.start",
        targetId: environment,
        before: { objects: 0, listsDone: 0, lists: walked.length },
        after: { mode: "resume" },
        outcome: "succeeded",
        error: null,
      }),
    ]);

    run.requestId = `req_${randomUUID()}`;
    const pagesBefore = walked.map((list) => list.pages);
    expect(await actions.startBackfill(idle, form({ mode: "repair" }))).toEqual({
      error: null,
      done: "Walking every sandbox list again from its first page",
    });
    await Promise.all(run.walks);
    const again = await backfillLists(database.db, environment);
    expect(again.map((list) => [list.walk, list.pages])).toEqual(walked.map((list, index) => ["done", pagesBefore[index]]));
    expect(await recordsOfThisRequest()).toEqual([
      expectedRecord({
        action: "index.backfill.start",
        targetId: environment,
        before: { objects, listsDone: walked.length, lists: walked.length },
        after: { mode: "repair" },
        outcome: "succeeded",
        error: null,
      }),
    ]);
  });

  it("refuses to start while a list is being walked, and resumes a walk that stopped", async () => {
    await actions.purgeIndex(idle, form());
    run.requestId = `req_${randomUUID()}`;
    const walking = { environment, resource: "ach", cursor: null, objects: 100, pages: 1 };
    await database.db.insert(schema.indexBackfill).values({ ...walking, updatedAt: new Date() });
    expect(await actions.startBackfill(idle, form({ mode: "resume" }))).toEqual({
      error: expect.stringMatching(
        /^A walk is in progress \(ach, last page at [A-Z][a-z]{2} \d{1,2}(, \d{4})?, \d{2}:\d{2} \(UTC\)\); wait until it finishes or stops\.$/,
      ),
      done: null,
    });
    expect(await actions.startBackfill(idle, form({ mode: "repair" }))).toMatchObject({ error: expect.stringMatching(/^A walk is in progress/) });
    expect(run.walks).toEqual([]);
    expect(await recordsOfThisRequest()).toEqual([]);

    await database.db
      .update(schema.indexBackfill)
      .set({ updatedAt: new Date(Date.now() - walkIdleMs - 1000) })
      .where(eq(schema.indexBackfill.environment, environment));
    expect((await backfillLists(database.db, environment)).find((list) => list.resource === "ach")?.walk).toBe("interrupted");
    expect(await actions.startBackfill(idle, form({ mode: "resume" }))).toEqual({ error: null, done: "Backfill of sandbox started" });
    await Promise.all(run.walks);
    expect((await backfillLists(database.db, environment)).every((list) => list.walk === "done")).toBe(true);
  });

  it("purges everything the index holds of the environment and records what went", async () => {
    await runBackfill({ db: database.db, client: fixture.bank, environment, pageSize: 100, pagesPerSecond: 0, log: silentLog });
    const held = await indexContents(database.db, environment);
    const objects = held.byResource.reduce((sum, row) => sum + row.objects + row.gone, 0);
    expect(objects).toBeGreaterThan(0);
    expect(await actions.purgeIndex(idle, form())).toEqual({ error: null, done: "Purged the sandbox index" });
    const left = await indexContents(database.db, environment);
    expect(left).toMatchObject({ versions: 0, inbox: { total: 0, waiting: 0, failing: 0 } });
    expect(left.byResource.every((row) => row.objects === 0 && row.gone === 0)).toBe(true);
    expect((await backfillLists(database.db, environment)).every((list) => list.walk === "not started")).toBe(true);
    expect(await recordsOfThisRequest()).toEqual([
      expectedRecord({
        action: "index.purge",
        targetId: environment,
        outcome: "succeeded",
        error: null,
        before: { objects, versions: held.versions, notifications: held.inbox.total },
        after: { objects: 0, versions: 0, notifications: 0 },
      }),
    ]);
  });

  it("says plainly when the environment has no bank credentials, and records nothing", async () => {
    run.bankConfigured = false;
    expect(await subscriptionsView(await clientFor(), environment)).toEqual({ kind: "not configured" });
    expect(await actions.startBackfill(idle, form({ mode: "resume" }))).toEqual({
      error: "The sandbox environment has no bank credentials.",
      done: null,
    });
    expect(await actions.resetSubscription(idle, form({ webhookId: "wh_x" }))).toEqual({
      error: "The sandbox environment has no bank credentials.",
      done: null,
    });
    expect(await recordsOfThisRequest()).toEqual([]);
  });

  it("says what the bank answered when it cannot be reached", async () => {
    const unreachable = createBankClient({ baseUrl: "http://127.0.0.1:9", auth: { type: "bearer", token: "x" } }, { retries: 0 });
    expect(await subscriptionsView(unreachable, environment)).toEqual({ kind: "unreachable", reason: expect.stringMatching(/.+/) });
  });
});
