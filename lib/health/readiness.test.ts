import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBankCircuit } from "@/lib/bank/circuit";
import { createBankClient } from "@/lib/bank/client";
import { createBankReachability } from "@/lib/bank/reachability";
import { connectDatabase } from "@/lib/db/connect";
import * as schema from "@/lib/db/console-schema";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { startLocalServer, type LocalServer } from "@/tests/support/local-server";
import { bankHealth } from "./bank-health";
import { readinessRoute } from "./readiness";

const unavailable = { status: "unavailable", error: "The console's database is not reachable" };
const signedIn = async () => true;

describe.each(testDatabaseTargets)("the console's readiness on $name", (target) => {
  const database = migratedConsoleDatabase(target);

  it("answers 200 ok while its database answers", async () => {
    const response = await readinessRoute(async () => database)();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("reports to signed-in staff what it last saw of each bank without becoming unready when a bank is down", async () => {
    const sandboxDown = { sandbox: { state: "unreachable" as const, since: "2026-11-23T10:00:00.000Z", checkedAt: "2026-11-23T10:00:05.000Z" } };
    const response = await readinessRoute(
      async () => database,
      () => sandboxDown,
      signedIn,
    )();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", bank: sandboxDown });
  });

  describe("with a bank that answers, then fails until its breaker opens", () => {
    // A real HTTP server as the bank: a list page while `down` is false, 503 after.
    let down = false;
    let bankServer: LocalServer;
    beforeAll(async () => {
      bankServer = await startLocalServer((_request, response) =>
        down
          ? response.writeHead(503).end('{"error":"maintenance"}')
          : response.writeHead(200, { "content-type": "application/json" }).end('{"data":[]}'),
      );
    });
    afterAll(() => bankServer.close());

    it("reports the breaker per environment (state, since when, last answered) and stays ready while it is open", async () => {
      down = false;
      const reachability = createBankReachability();
      const circuit = createBankCircuit("sandbox", { failures: 2, halfOpenAfterMs: 60_000 });
      const bank = createBankClient(
        { baseUrl: bankServer.url, auth: { type: "basic", keyId: "k", secret: "secret-for-test" } },
        { retries: 0, circuit, onReached: (reached) => reachability.record("sandbox", reached) },
      );
      const health = readinessRoute(
        async () => database,
        bankHealth(reachability.snapshot, () => circuit.snapshot()),
        signedIn,
      );

      await bank.resources.list("ach");
      const answering = (await (await health()).json()) as { bank: { sandbox: { circuit: Record<string, unknown> } } };
      const lastAnsweredAt = answering.bank.sandbox.circuit.lastAnsweredAt as string;
      expect(answering.bank.sandbox).toEqual({
        state: "reachable",
        since: expect.any(String),
        checkedAt: expect.any(String),
        circuit: { state: "closed", since: expect.any(String), failingSince: null, lastAnsweredAt: expect.any(String) },
      });

      down = true;
      for (let read = 0; read < 2; read += 1) await bank.resources.list("ach").catch(() => undefined);
      const response = await health();
      expect(response.status).toBe(200);
      const body = (await response.json()) as { status: string; bank: { sandbox: { circuit: { since: string; failingSince: string } } } };
      expect(body).toEqual({
        status: "ok",
        bank: {
          sandbox: {
            state: "reachable",
            since: expect.any(String),
            checkedAt: expect.any(String),
            circuit: { state: "open", since: expect.any(String), failingSince: expect.any(String), lastAnsweredAt },
          },
        },
      });
      // Opened by the second failure, after the first one began the run.
      expect(Date.parse(body.bank.sandbox.circuit.since)).toBeGreaterThanOrEqual(Date.parse(body.bank.sandbox.circuit.failingSince));
      expect(Date.parse(body.bank.sandbox.circuit.failingSince)).toBeGreaterThanOrEqual(Date.parse(lastAnsweredAt));
    });
  });

  it("says only up or down when signed out: nothing of the banks", async () => {
    const sandboxSeen = { sandbox: { state: "reachable" as const, since: "2026-11-23T10:00:00.000Z", checkedAt: "2026-11-23T10:00:05.000Z" } };
    const up = await readinessRoute(
      async () => database,
      () => sandboxSeen,
      async () => false,
    )();
    expect([up.status, await up.json()]).toEqual([200, { status: "ok" }]);
    const down = await readinessRoute(
      async () => Promise.reject(new Error("down")),
      () => sandboxSeen,
      async () => false,
    )();
    expect([down.status, await down.json()]).toEqual([503, unavailable]);
  });

  it("answers 503 draining once the process is stopping, whatever its database says, so a load balancer stops sending", async () => {
    const response = await readinessRoute(
      async () => database,
      () => ({}),
      signedIn,
      () => true,
    )();
    expect([response.status, await response.json()]).toEqual([503, { status: "draining" }]);
  });

  it("answers 503 in its documented shape when the database's connections are gone, and 200 again once it is back", async () => {
    const closed = connectDatabase(database.pool.options.connectionString!, schema);
    await closed.close();
    let current = closed;
    const route = readinessRoute(async () => current);
    const down = await route();
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual(unavailable);
    current = database;
    expect((await route()).status).toBe(200);
  });

  it("answers 503, without the reason or a stack, when the database cannot be opened or migrated at all", async () => {
    const response = await readinessRoute(async () => {
      throw new Error("password authentication failed for user console at 10.0.0.7");
    })();
    expect(response.status).toBe(503);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual(unavailable);
    expect(text).not.toContain("10.0.0.7");
  });
});
