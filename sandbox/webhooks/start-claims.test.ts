import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultSandboxSettings } from "@/sandbox/context";
import { startSandbox, type RunningSandbox, type StartSandboxOptions } from "@/sandbox/server";
import { testDatabaseTargets } from "@/tests/support/databases";
import { demoKey, sandboxClient } from "@/tests/support/sandbox-client";
import { eventually, startReceiver, type Receiver } from "@/tests/support/webhook-receiver";

/**
 * A sandbox killed mid-delivery leaves its claim (locked_until) behind. On embedded PGlite the next start releases it
 * at once, since no other process can hold one; on a shared PostgreSQL another live process may, so the lease stands.
 */
describe.each(testDatabaseTargets)("delivery claims left by a killed sandbox, at the next start on $name", (target) => {
  let receiver: Receiver;
  let database: Pick<StartSandboxOptions, "databaseUrl" | "dataDir">;
  let cleanup: () => Promise<void>;
  let running: RunningSandbox | undefined;
  // A failed attempt is retried only after a minute: within this test, only a released claim sends it again.
  const settings = { webhooks: { ...defaultSandboxSettings.webhooks, pollIntervalMs: 20, retryBaseMs: 60_000, requestTimeoutMs: 1000 } };

  beforeAll(async () => {
    receiver = await startReceiver();
    if (target.name === "pglite") {
      // Embedded, as `npm run sandbox` runs it: no database URL, the data on disk.
      const dataDir = mkdtempSync(path.join(tmpdir(), "sandbox-claims-"));
      database = { dataDir };
      cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
    } else {
      const created = await target.create();
      database = { databaseUrl: created.url };
      cleanup = created.drop;
    }
  }, 120_000);
  afterAll(async () => {
    await running?.close();
    await receiver?.close();
    await cleanup?.();
  });

  it(
    target.name === "pglite" ? "are released: the delivery is sent again at once" : "are kept until their lease ends",
    async () => {
      receiver.respondWith(() => 500);
      running = await startSandbox({ ...database, seed: "empty", demoKey, settings });
      const request = sandboxClient(running.url, demoKey.id, demoKey.secret);
      const hook = await request("/webhook", { method: "POST", json: { url: receiver.url("/claims"), event: "webhook.create" } });
      expect(hook.status).toBe(201);
      const attempts = async () => ((await request(`/webhook/${(hook.body as { id: string }).id}/deliveries`)).body as { data: unknown[] }).data;
      // The refused attempt is recorded (so recording it cannot undo the claim below).
      await eventually(async () => (await attempts()).length === 1);
      // What a process killed while sending leaves: a due delivery claimed for an hour.
      await running.context.db.execute(sql`update sandbox.webhook_deliveries set next_attempt_at = now(), locked_until = now() + interval '1 hour'`);
      await running.close();
      running = undefined;

      receiver.respondWith(() => 200);
      running = await startSandbox({ ...database, seed: "empty", demoKey, settings });
      const locked = async () =>
        (await running!.context.db.execute<{ locked: boolean }>(sql`select locked_until is not null as locked from sandbox.webhook_deliveries`)).rows;
      if (target.name === "pglite") {
        await eventually(() => receiver.at("/claims").length === 2, 10_000);
        expect(receiver.at("/claims")[1]!.body.id).toBe((hook.body as { id: string }).id);
        // The delivery holds its claim while it is sent and until its answer is recorded, a moment after the receiver
        // has the POST: then nothing is left locked.
        await eventually(async () => (await locked())[0]?.locked === false, 10_000);
        expect(await locked()).toEqual([{ locked: false }]);
      } else {
        expect(await locked()).toEqual([{ locked: true }]);
        expect(receiver.at("/claims")).toHaveLength(1);
      }
    },
    120_000,
  );
});
