import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBankClient } from "@/lib/bank/client";
import * as schema from "@/lib/db/console-schema";
import { createLogger } from "@/lib/log";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { readUntil } from "@/tests/support/sandbox-bank";
import { claimDueNotifications, markProcessed, releaseLeases, storeNotification } from "./inbox";
import { startIndexWorker } from "./worker";

// A console process that stops cleanly gives back the leases of the notifications it claimed and has not settled, so
// another process sharing the database takes them at once instead of after the lease (60 s). Against a bank that
// accepts connections and never answers: the worker's round cannot finish within the grace.

let hangingBank: Server;
let hangingUrl: string;
beforeAll(async () => {
  hangingBank = createServer(() => {});
  await new Promise<void>((resolve) => hangingBank.listen(0, "127.0.0.1", resolve));
  hangingUrl = `http://127.0.0.1:${(hangingBank.address() as AddressInfo).port}`;
});
afterAll(async () => {
  hangingBank.closeAllConnections();
  await new Promise((resolve) => hangingBank.close(resolve));
});

describe.each(testDatabaseTargets)("giving back the inbox's leases on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  let sequence = 0;
  const store = () => {
    const id = `ach_lease${(sequence += 1).toString().padStart(6, "0")}`;
    return storeNotification(database.db, "sandbox", { event: "ach.update", op: "update", id, url: `${hangingUrl}/ach/${id}`, resource: "ach" });
  };
  const row = async (id: number) => (await database.db.select().from(schema.bankEventInbox).where(eq(schema.bankEventInbox.id, id)))[0]!;

  it("makes claimed rows due again at once, without counting the claim as an attempt, and leaves settled rows settled", async () => {
    const [first, second] = [await store(), await store()];
    const claimed = await claimDueNotifications(database.db, 10, 60_000);
    expect(claimed.map((claim) => claim.id)).toEqual([first.id, second.id]);
    // Leased: nobody else takes them until the lease runs out.
    expect(await claimDueNotifications(database.db, 10, 60_000)).toEqual([]);
    await markProcessed(database.db, second.id, "changed");

    expect(await releaseLeases(database.db, [first.id, second.id])).toBe(1);

    expect(await row(first.id)).toMatchObject({ state: "pending", leaseUntil: null, attempts: 0 });
    expect(await row(second.id)).toMatchObject({ state: "processed", outcome: "changed" });
    const takenByAnother = await claimDueNotifications(database.db, 10, 60_000);
    expect(takenByAnother.map((claim) => [claim.id, claim.attempts])).toEqual([[first.id, 1]]);
    await markProcessed(database.db, first.id, "changed");
  });

  it("gives back, when a stopping worker's round outlasts the grace, the leases of the rows that round holds", async () => {
    const worker = startIndexWorker({
      db: database.db,
      clientFor: async () => createBankClient({ baseUrl: hangingUrl, auth: { type: "bearer", token: "x" } }, { retries: 0, timeoutMs: 60_000 }),
      log: createLogger({ level: "silent" }),
      maxAttempts: 10,
      pollMs: 50,
    });
    const { id } = await store();
    await readUntil(
      () => row(id),
      (current) => current.state === "processing",
    );

    const started = Date.now();
    expect(await worker.stop(200)).toBe(1);
    expect(Date.now() - started).toBeLessThan(2_000);

    expect(await row(id)).toMatchObject({ state: "pending", leaseUntil: null, attempts: 0 });
    expect((await claimDueNotifications(database.db, 10, 60_000)).map((claim) => claim.id)).toEqual([id]);
  });

  it("gives back nothing when the round in progress settles within the grace", async () => {
    const worker = startIndexWorker({
      db: database.db,
      clientFor: async () => null,
      log: createLogger({ level: "silent" }),
      maxAttempts: 10,
      pollMs: 50,
    });
    expect(await worker.stop(5_000)).toBe(0);
  });
});
