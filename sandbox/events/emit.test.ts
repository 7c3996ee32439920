import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { openSandboxDatabase, type SandboxDatabase } from "@/sandbox/db";
import { events, webhookDeliveries, webhooks } from "@/sandbox/db/webhook-schema";
import { testDatabaseTargets } from "@/tests/support/databases";
import { emitEvent } from "./emit";

describe.each(testDatabaseTargets)("emitEvent on $name", (target) => {
  let drop: () => Promise<void>;
  let database: SandboxDatabase;

  beforeAll(async () => {
    const created = await target.create();
    drop = created.drop;
    database = await openSandboxDatabase(created.url);
    await database.db.insert(webhooks).values([
      { id: "webhook_enabled", url: "http://127.0.0.1:1/a", event: "ach.update" },
      { id: "webhook_disabled", url: "http://127.0.0.1:1/b", event: "ach.update", status: "disabled" },
      { id: "webhook_in_error", url: "http://127.0.0.1:1/c", event: "ach.update", status: "error" },
      { id: "webhook_other_event", url: "http://127.0.0.1:1/d", event: "ach.create" },
    ]);
  });

  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  it("records the event and queues one pending delivery per enabled webhook subscribed to it", async () => {
    await emitEvent(database.db, { resource: "ach", op: "update", id: "ach_1" });
    const event = (await database.db.select().from(events).where(eq(events.objectId, "ach_1")))[0]!;
    expect(event).toMatchObject({ name: "ach.update", op: "update", resource: "ach" });
    const deliveries = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, event.id));
    expect(deliveries).toEqual([expect.objectContaining({ webhookId: "webhook_enabled", state: "pending", attempts: 0 })]);
  });

  it("queues nothing when the transaction that emitted rolls back", async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await emitEvent(tx, { resource: "ach", op: "update", id: "ach_rolled_back" });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await database.db.select().from(events).where(eq(events.objectId, "ach_rolled_back"))).toEqual([]);
  });
});
