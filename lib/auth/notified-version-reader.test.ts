import { describe, expect, it } from "vitest";
import { connectDatabase, type Database } from "@/lib/db/connect";
import * as schema from "@/lib/db/console-schema";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { heldConnectionVersionReader, readAccessVersion } from "./access-cache";
import { accessVersionChannel, notifiedVersionReader, type NotifiedVersionReader } from "./notified-version-reader";
import { createStaff, updateStaff } from "./staff-users";

describe.each(testDatabaseTargets)("the notified access-version reader on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  const url = () => database.pool.options.connectionString!;

  // PGlite serves every connection from one session; lib/db/embedded.ts passes notifications on as a server would.
  describe("as a console process", () => {
    /**
     * A console process as lib/db/console.ts wires it: its own pool, every connection listening, and the reader;
     * `databaseReads` counts the version reads that went to the database.
     */
    async function withConsoleProcess(
      test: (process: { db: Database<typeof schema>["db"]; reader: NotifiedVersionReader; databaseReads: () => number }) => Promise<void>,
      options: { probeMs?: number } = {},
    ) {
      const own = connectDatabase(url(), schema, {
        max: 4,
        listen: { channel: accessVersionChannel, heard: () => reader.heard(), failed: () => reader.failed() },
      });
      const held = heldConnectionVersionReader(own.pool);
      let databaseReads = 0;
      const reader = notifiedVersionReader(
        own.pool,
        { read: () => (databaseReads++, held.read()), release: held.release },
        { retryMs: 50, ...options },
      );
      try {
        await test({ db: own.db, reader, databaseReads: () => databaseReads });
      } finally {
        reader.release();
        await own.close();
      }
    }

    /** Reads until the reader answers without asking the database: it listens and remembers the version. */
    async function untilListening(reader: NotifiedVersionReader, databaseReads: () => number) {
      await expect
        .poll(async () => {
          await reader.read();
          const before = databaseReads();
          await reader.read();
          return databaseReads() - before;
        })
        .toBe(0);
    }

    const newUser = (db = database.db) =>
      createStaff(db, { email: `${Math.random().toString(36).slice(2)}@bank.example`, name: "Notified", role: "viewer", password: null });

    it("reads the version once while nothing changes", async () => {
      await withConsoleProcess(async ({ reader, databaseReads }) => {
        await untilListening(reader, databaseReads);
        const reads = databaseReads();
        const versions = await Promise.all(Array.from({ length: 20 }, () => reader.read()));
        expect(new Set(versions)).toEqual(new Set([await readAccessVersion(database.pool)]));
        expect(databaseReads()).toBe(reads);
      });
    });

    it("hears a change made on a connection of the pool before that write returns (every connection listens)", async () => {
      let heard = 0;
      const own = connectDatabase(url(), schema, { max: 2, listen: { channel: accessVersionChannel, heard: () => heard++, failed: () => {} } });
      try {
        // No other connection of this pool exists yet: only the writing one can have heard it.
        await updateStaff(own.db, (await newUser(own.db)).id, { role: "admin" });
        expect(heard).toBeGreaterThanOrEqual(2);
        expect(own.pool.totalCount).toBe(1);
      } finally {
        await own.close();
      }
    });

    it("applies a change this process made on its very next read, without waiting for anything", async () => {
      await withConsoleProcess(async ({ db, reader, databaseReads }) => {
        await untilListening(reader, databaseReads);
        const before = await reader.read();
        // PostgreSQL sends the writing connection its own notification before the answer to the write.
        await updateStaff(db, (await newUser(db)).id, { role: "admin" });
        expect(await reader.read()).toBe(await readAccessVersion(database.pool));
        expect(await reader.read()).toBeGreaterThan(before);
      });
    });

    it("applies another process's change as soon as its notification arrives", async () => {
      await withConsoleProcess(async ({ reader, databaseReads }) => {
        await untilListening(reader, databaseReads);
        const before = await reader.read();
        await updateStaff(database.db, (await newUser()).id, { role: "admin" });
        await expect.poll(() => reader.read()).toBe(await readAccessVersion(database.pool));
        expect(await reader.read()).toBeGreaterThan(before);
      });
    });

    it("takes nothing from a notification but the need to read: anyone connected may send one", async () => {
      await withConsoleProcess(async ({ reader, databaseReads }) => {
        await untilListening(reader, databaseReads);
        const version = await reader.read();
        const reads = databaseReads();
        await database.pool.query("SELECT pg_notify($1, $2)", [accessVersionChannel, String(version + 1_000)]);
        await expect.poll(async () => (await reader.read(), databaseReads())).toBeGreaterThan(reads);
        expect(await reader.read()).toBe(version);
      });
    });

    // PGlite's one session cannot be terminated on its own.
    it.runIf(target.name === "postgresql")(
      "reads the database on every request while its listening connection is lost, then listens again",
      async () => {
        await withConsoleProcess(async ({ reader, databaseReads }) => {
          await untilListening(reader, databaseReads);
          const { rows } = await database.pool.query<{ terminated: boolean }>(
            `SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity
           WHERE datname = current_database() AND query = $1 AND pid <> pg_backend_pid()`,
            [`LISTEN ${accessVersionChannel}`],
          );
          expect(rows).toEqual([{ terminated: true }]);
          // Once the loss is noticed, each read asks the database (so it sees every committed change) ...
          await expect
            .poll(async () => {
              const reads = databaseReads();
              await reader.read();
              return databaseReads() - reads;
            })
            .toBe(1);
          // ... until a new listening connection has heard its own probe.
          await untilListening(reader, databaseReads);
          await updateStaff(database.db, (await newUser()).id, { role: "admin" });
          await expect.poll(() => reader.read()).toBe(await readAccessVersion(database.pool));
        });
      },
    );

    it("reads the database on every request, for good, when its probe goes unheard", async () => {
      // Probes are the notifications with a payload (the trigger's are empty); another connection counts them.
      const observer = await database.pool.connect();
      const probes: string[] = [];
      observer.on("notification", (message) => {
        if (message.payload) probes.push(message.payload);
      });
      try {
        await observer.query(`LISTEN ${accessVersionChannel}`);
        // No wait at all for the probe: it cannot be heard in time, as on a database that does not pass it on.
        await withConsoleProcess(
          async ({ reader, databaseReads }) => {
            const reads = databaseReads();
            for (let i = 0; i < 10; i++) {
              await reader.read();
              await new Promise((resolve) => setTimeout(resolve, 30));
            }
            expect(databaseReads()).toBe(reads + 10);
          },
          { probeMs: 0 },
        );
        // One attempt, not one per retry interval (50 ms here) over the 300 ms of reads.
        expect(probes).toHaveLength(1);
      } finally {
        await observer.query(`UNLISTEN ${accessVersionChannel}`);
        observer.release();
      }
    });

    it("reads the database on every request once a connection of the pool could not listen", async () => {
      await withConsoleProcess(async ({ reader, databaseReads }) => {
        await untilListening(reader, databaseReads);
        reader.failed();
        const reads = databaseReads();
        await reader.read();
        await reader.read();
        expect(databaseReads()).toBe(reads + 2);
      });
    });
  });
});
