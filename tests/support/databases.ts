import pg from "pg";
import { startEmbeddedPostgres } from "@/lib/db/embedded";

/** A database a storage test runs against: embedded PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export interface TestDatabaseTarget {
  name: "pglite" | "postgresql";
  /** Creates a fresh, empty database and returns its URL and a function that removes it. */
  create(): Promise<{ url: string; drop(): Promise<void> }>;
}

const postgresUrl = process.env.TEST_DATABASE_URL;

export const testDatabaseTargets: TestDatabaseTarget[] = [
  {
    name: "pglite",
    async create() {
      const embedded = await startEmbeddedPostgres({});
      return { url: embedded.url, drop: () => embedded.close() };
    },
  },
];

if (postgresUrl) {
  testDatabaseTargets.push({
    name: "postgresql",
    async create() {
      const name = `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
      const admin = new pg.Client({ connectionString: postgresUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const url = new URL(postgresUrl);
      url.pathname = `/${name}`;
      return {
        url: url.toString(),
        async drop() {
          const cleanup = new pg.Client({ connectionString: postgresUrl });
          await cleanup.connect();
          await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await cleanup.end();
        },
      };
    },
  });
} else {
  console.warn("TEST_DATABASE_URL is not set: storage tests run against PGlite only and skip PostgreSQL.");
}
