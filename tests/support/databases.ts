import { createScratchDatabase, type ScratchDatabase } from "@/lib/db/scratch-database";

/**
 * A database a storage test runs against: embedded PGlite always, and PostgreSQL at TEST_DATABASE_URL. Under CI
 * (`CI` set, as .ci/run does) PostgreSQL is required: without TEST_DATABASE_URL every storage test file fails at
 * import, so a run on one target never passes for a run on both.
 */
export interface TestDatabaseTarget {
  name: "pglite" | "postgresql";
  /** Creates a fresh, empty database and returns its URL and a function that removes it. */
  create(): Promise<ScratchDatabase>;
}

/**
 * The targets for this environment; throws under CI when PostgreSQL is missing (exported for its own test).
 * `TEST_DATABASE_TARGETS=postgresql` keeps only PostgreSQL, for quick reruns such as mutation testing; refused under CI.
 */
export function databaseTargets(env: { CI?: string; TEST_DATABASE_URL?: string; TEST_DATABASE_TARGETS?: string }): TestDatabaseTarget[] {
  const targets: TestDatabaseTarget[] = [{ name: "pglite", create: () => createScratchDatabase(undefined, "") }];
  const postgresUrl = env.TEST_DATABASE_URL;
  if (postgresUrl) {
    targets.push({
      name: "postgresql",
      create: () => createScratchDatabase(postgresUrl, `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`),
    });
  } else if (isCi(env)) {
    throw new Error("CI is set but TEST_DATABASE_URL is not: storage tests must run on PostgreSQL as well as PGlite (see docs/testing.md).");
  } else {
    console.warn("TEST_DATABASE_URL is not set: storage tests run against PGlite only and skip PostgreSQL.");
  }
  const chosen = env.TEST_DATABASE_TARGETS?.split(",").map((name) => name.trim());
  if (!chosen) return targets;
  if (isCi(env)) throw new Error("TEST_DATABASE_TARGETS narrows the storage tests to some targets, which CI never does.");
  const narrowed = targets.filter((target) => chosen.includes(target.name));
  if (narrowed.length !== chosen.length)
    throw new Error(`TEST_DATABASE_TARGETS=${env.TEST_DATABASE_TARGETS}: available are ${targets.map((target) => target.name).join(", ")}`);
  return narrowed;
}

function isCi(env: { CI?: string }): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== "" && value !== "0" && value !== "false";
}

export const testDatabaseTargets = databaseTargets({
  CI: process.env.CI,
  TEST_DATABASE_URL: process.env.TEST_DATABASE_URL,
  TEST_DATABASE_TARGETS: process.env.TEST_DATABASE_TARGETS,
});
