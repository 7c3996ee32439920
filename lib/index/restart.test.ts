import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBankClient, type BankClient } from "@/lib/bank/client";
import * as schema from "@/lib/db/console-schema";
import { createLogger } from "@/lib/log";
import { startSandbox, type RunningSandbox } from "@/sandbox/server";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { ensureReceiverCredentials } from "./receiver-credentials";
import { startIndexWorker } from "./worker";

// Nothing acknowledged is lost: a console process answers 200 to notifications, takes them for processing, and is
// killed with SIGKILL before it processed any; the next process processes every one.

const key = { id: "key_index_restart", secret: "index-restart-secret-0123456789" };
const log = createLogger({ level: "silent" });
let sandbox: RunningSandbox;
let bank: BankClient;

beforeAll(async () => {
  sandbox = await startSandbox({ seed: "demo", demoKey: key, log });
  bank = createBankClient({ baseUrl: sandbox.url, auth: { type: "basic", keyId: key.id, secret: key.secret } }, { retries: 0 });
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
});

function linesOf(child: ChildProcess, onLine: (line: string) => void) {
  let buffered = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split("\n");
    buffered = lines.pop()!;
    lines.forEach(onLine);
  });
}

describe.each(testDatabaseTargets)("a console killed with notifications acknowledged but not processed, on $name", (target) => {
  const database = migratedConsoleDatabase(target);

  it("processes every one of them after a restart", { timeout: 60_000 }, async () => {
    const credentials = await ensureReceiverCredentials(database.db, "sandbox", randomBytes(32), "test");
    const url = database.pool.options.connectionString!;
    const child = spawn(process.execPath, ["--import", "tsx", "tests/support/receiver-that-dies.ts", url, credentials.username, credentials.secret], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const listening = new Promise<string>((resolve) => linesOf(child, (line) => line.startsWith("listening ") && resolve(line.slice(10))));
    const claimed = new Promise<void>((resolve) => linesOf(child, (line) => line.startsWith("claimed ") && resolve()));
    const receiverUrl = await listening;

    const transfers = (await bank.list_ach({ page_size: 5 })).data as Array<{ id: string }>;
    const authorization = `Basic ${Buffer.from(`${credentials.username}:${credentials.secret}`).toString("base64")}`;
    for (const { id } of transfers) {
      const answer = await fetch(receiverUrl, {
        method: "POST",
        headers: { authorization, "content-type": "application/json" },
        body: JSON.stringify({ event: "ach.update", op: "update", id, url: `${sandbox.url}/ach/${id}` }),
      });
      expect(answer.status).toBe(200);
    }
    await claimed;
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));

    const ids = transfers.map((transfer) => transfer.id);
    const rows = () => database.db.select().from(schema.bankEventInbox).where(inArray(schema.bankEventInbox.objectId, ids));
    expect((await rows()).every((row) => row.state !== "processed")).toBe(true);

    const worker = startIndexWorker({ db: database.db, clientFor: async () => bank, log, pollMs: 100, maxAttempts: 10 });
    try {
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && !(await rows()).every((row) => row.state === "processed"))
        await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await worker.stop();
    }
    const settled = await rows();
    expect(settled).toHaveLength(transfers.length);
    expect(settled.map((row) => [row.state, row.outcome])).toEqual(transfers.map(() => ["processed", "changed"]));
    const indexed = await database.db.select({ id: schema.bankObjects.id }).from(schema.bankObjects).where(inArray(schema.bankObjects.id, ids));
    expect(indexed.map((row) => row.id).sort()).toEqual([...ids].sort());
  });
});
