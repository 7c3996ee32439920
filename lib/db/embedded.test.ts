import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "./embedded";

describe("embedded PostgreSQL shared by several connections", () => {
  let embedded: EmbeddedPostgres;
  let pool: pg.Pool;

  beforeAll(async () => {
    embedded = await startEmbeddedPostgres({});
    pool = new pg.Pool({ connectionString: embedded.url, max: 10 });
  });
  afterAll(async () => {
    await pool?.end();
    await embedded?.close();
  });

  it("keeps each connection's parameterized queries whole while others open and close transactions", async () => {
    const inTransaction = async (n: number) => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await client.query("SELECT $1::int AS n", [n]);
        await client.query("COMMIT");
        return result.rows[0].n;
      } finally {
        client.release();
      }
    };
    const plain = async (n: number) => (await pool.query("SELECT $1::int AS n, $2::text AS a, $3::text AS b", [n, "a", "b"])).rows[0].n;
    const numbers = Array.from({ length: 600 }, (_, n) => n);
    const results = await Promise.all(numbers.map((n) => (n % 3 === 0 ? inTransaction(n) : plain(n))));
    expect(results).toEqual(numbers);
  });

  it("passes a notification on to every connection that listens on its channel, whichever connection sent it", async () => {
    const clients = await Promise.all([0, 1, 2, 3].map(() => pool.connect()));
    const heard = clients.map(() => [] as string[]);
    clients.forEach((client, index) => client.on("notification", (message) => heard[index]!.push(`${message.channel}:${message.payload}`)));
    try {
      await clients[0]!.query("LISTEN chan_a");
      await clients[1]!.query("LISTEN chan_a");
      await clients[2]!.query("LISTEN chan_b");
      // A long answer around it: the notification must arrive whole, between whole answers.
      const [{ rows }] = await Promise.all([
        clients[3]!.query("SELECT repeat('x', 100000) AS big, pg_notify('chan_a', 'one') IS NULL AS sent"),
        clients[2]!.query("SELECT 1"),
      ]);
      expect(rows[0].big).toHaveLength(100_000);
      await clients[3]!.query("BEGIN");
      await clients[3]!.query("SELECT pg_notify('chan_a', 'rolled back')");
      await clients[3]!.query("ROLLBACK");
      await clients[1]!.query("UNLISTEN chan_a");
      await clients[0]!.query("SELECT pg_notify('chan_a', 'two')");
      await expect.poll(() => heard[0]).toEqual(["chan_a:one", "chan_a:two"]);
      // Still whole connections: each answers a query after what it was sent.
      expect(await Promise.all(clients.map(async (client) => (await client.query("SELECT 1 AS one")).rows[0].one))).toEqual([1, 1, 1, 1]);
      expect(heard[1]).toEqual(["chan_a:one"]);
      expect(heard[2]).toEqual([]);
      // Unlike a server, PGlite's one session also answers the sender with it: harmless, and not ours to strip.
      expect(heard[3]).toEqual(["chan_a:one"]);
    } finally {
      await Promise.all(clients.map((client) => client.query("UNLISTEN *").catch(() => {})));
      for (const client of clients) client.release();
    }
  });

  it("keeps serving other connections after a query fails", async () => {
    await expect(pool.query("SELECT $1::int AS n", ["not a number"])).rejects.toThrow(/invalid input syntax/);
    const results = await Promise.all([1, 2, 3].map(async (n) => (await pool.query("SELECT $1::int AS n", [n])).rows[0].n));
    expect(results).toEqual([1, 2, 3]);
  });
});

describe("embedded PostgreSQL on disk", () => {
  let dataDir: string;
  let embedded: EmbeddedPostgres | undefined;

  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), "embedded-disk-"));
  });
  afterAll(async () => {
    await embedded?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("starts over a socket file left behind by a killed process, and refuses a second server on the same data", async () => {
    mkdirSync(path.join(dataDir, "socket"), { recursive: true });
    writeFileSync(path.join(dataDir, "socket", ".s.PGSQL.5432"), "left by a process killed with SIGKILL");
    embedded = await startEmbeddedPostgres({ dataDir });
    const pool = new pg.Pool({ connectionString: embedded.url });
    expect((await pool.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    await pool.end();
    await expect(startEmbeddedPostgres({ dataDir })).rejects.toThrow(/Another process serves the embedded database/);
  });
});

describe("embedded PostgreSQL's checkpoints (PGlite has no checkpointer of its own)", () => {
  let embedded: EmbeddedPostgres | undefined;
  afterAll(async () => {
    await embedded?.close();
  });

  const lastCheckpoint = async (pool: pg.Pool) =>
    (await pool.query<{ redo: string }>("SELECT redo_lsn::text AS redo FROM pg_control_checkpoint()")).rows[0]!.redo;

  it("checkpoints once enough WAL is written, between whole queries, and not while nothing is written", async () => {
    embedded = await startEmbeddedPostgres({ checkpoints: { checkEveryMs: 50, walBytes: 4 * 1024 * 1024, maxAgeMs: 3_600_000 } });
    const pool = new pg.Pool({ connectionString: embedded.url, max: 4 });
    try {
      await pool.query("CREATE TABLE written (id int PRIMARY KEY, body text)");
      await new Promise((resolve) => setTimeout(resolve, 200));
      const quiet = await lastCheckpoint(pool);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await lastCheckpoint(pool)).toBe(quiet);

      // ~8 MB of WAL, in parameterized statements from several connections while the checks run.
      await Promise.all(
        Array.from({ length: 8 }, (_, batch) =>
          pool.query("INSERT INTO written SELECT g, repeat(md5(g::text), 32) FROM generate_series($1::int, $2::int) g", [
            batch * 1000,
            batch * 1000 + 999,
          ]),
        ),
      );
      await expect.poll(() => lastCheckpoint(pool), { timeout: 5_000 }).not.toBe(quiet);
      expect((await pool.query("SELECT count(*)::int AS n FROM written")).rows[0].n).toBe(8000);
    } finally {
      await pool.end();
    }
  });
});
