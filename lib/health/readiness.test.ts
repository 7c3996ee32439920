import { describe, expect, it } from "vitest";
import { connectDatabase } from "@/lib/db/connect";
import * as schema from "@/lib/db/console-schema";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
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
