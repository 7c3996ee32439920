import { describe, expect, it, vi } from "vitest";
import { databaseTargets } from "./databases";

describe("the database targets of storage tests", () => {
  const postgres = "postgres://postgres@127.0.0.1:5432/test";

  it("are PGlite and PostgreSQL when TEST_DATABASE_URL is set, under CI or not", () => {
    expect(databaseTargets({ TEST_DATABASE_URL: postgres }).map((target) => target.name)).toEqual(["pglite", "postgresql"]);
    expect(databaseTargets({ TEST_DATABASE_URL: postgres, CI: "true" }).map((target) => target.name)).toEqual(["pglite", "postgresql"]);
  });

  it.each(["true", "1", "yes"])("refuse to run on PGlite alone when CI=%s and TEST_DATABASE_URL is missing", (ci) => {
    expect(() => databaseTargets({ CI: ci })).toThrow(/CI is set but TEST_DATABASE_URL is not/);
  });

  it.each([undefined, "", "false", "0"])("are PGlite alone outside CI (CI=%s), with a warning", (ci) => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      expect(databaseTargets(ci === undefined ? {} : { CI: ci }).map((target) => target.name)).toEqual(["pglite"]);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining("skip PostgreSQL"));
    } finally {
      warn.mockRestore();
    }
  });

  it("narrow to the targets TEST_DATABASE_TARGETS names, never under CI, never to one that is missing", () => {
    expect(databaseTargets({ TEST_DATABASE_URL: postgres, TEST_DATABASE_TARGETS: "postgresql" }).map((target) => target.name)).toEqual([
      "postgresql",
    ]);
    expect(() => databaseTargets({ TEST_DATABASE_URL: postgres, TEST_DATABASE_TARGETS: "postgresql", CI: "true" })).toThrow(/CI/);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      expect(() => databaseTargets({ TEST_DATABASE_TARGETS: "postgresql" })).toThrow(/available are pglite/);
    } finally {
      warn.mockRestore();
    }
  });
});
