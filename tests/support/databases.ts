import { createScratchDatabase, type ScratchDatabase } from "@/lib/db/scratch-database";

/** A database a storage test runs against: embedded PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export interface TestDatabaseTarget {
  name: "pglite" | "postgresql";
  /** Creates a fresh, empty database and returns its URL and a function that removes it. */
  create(): Promise<ScratchDatabase>;
}

const postgresUrl = process.env.TEST_DATABASE_URL;

export const testDatabaseTargets: TestDatabaseTarget[] = [{ name: "pglite", create: () => createScratchDatabase(undefined, "") }];

if (postgresUrl) {
  testDatabaseTargets.push({
    name: "postgresql",
    create: () => createScratchDatabase(postgresUrl, `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`),
  });
} else {
  console.warn("TEST_DATABASE_URL is not set: storage tests run against PGlite only and skip PostgreSQL.");
}
