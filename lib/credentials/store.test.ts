import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { SealError } from "./seal";
import { deleteSavedConnection, loadSavedConnection, saveConnection, summarize } from "./store";

const key = randomBytes(32);

describe.each(testDatabaseTargets)("saved bank credentials on $name", (target) => {
  const database = migratedConsoleDatabase(target);

  it("stores the secret only encrypted and reads it back", async () => {
    const connection = {
      environment: "production" as const,
      baseUrl: "https://api.bank.example",
      auth: { type: "basic" as const, keyId: "key_1", secret: "very-secret-value" },
    };
    await saveConnection(database.db, connection, key, "admin@demo.bank");
    const raw = await database.pool.query("SELECT * FROM console.bank_credentials");
    expect(JSON.stringify(raw.rows)).not.toContain("very-secret-value");
    expect(await loadSavedConnection(database.db, "production", key)).toMatchObject({ ...connection, updatedBy: "admin@demo.bank" });
    await expect(loadSavedConnection(database.db, "production", randomBytes(32))).rejects.toThrow(SealError);
  });

  it("replaces saved credentials and falls back to nothing once they are deleted", async () => {
    await saveConnection(
      database.db,
      { environment: "production", baseUrl: "https://other.bank.example", auth: { type: "bearer", token: "tok-123" } },
      key,
      "b@demo.bank",
    );
    expect(await loadSavedConnection(database.db, "production", key)).toMatchObject({
      baseUrl: "https://other.bank.example",
      auth: { type: "bearer", token: "tok-123" },
    });
    expect(await deleteSavedConnection(database.db, "production")).toBe(true);
    expect(await deleteSavedConnection(database.db, "production")).toBe(false);
    expect(await loadSavedConnection(database.db, "production", key)).toBeNull();
  });
});

describe("a connection summary", () => {
  it("shows where credentials come from and the key id, never the secret or token", () => {
    const basic = summarize(
      { environment: "sandbox", baseUrl: "http://127.0.0.1:4010", auth: { type: "basic", keyId: "k", secret: "s3cret" } },
      "sandbox",
      "environment variables",
    );
    expect(basic).toMatchObject({ source: "environment variables", authType: "basic", keyId: "k" });
    expect(JSON.stringify(basic)).not.toContain("s3cret");
    const bearer = summarize({ environment: "production", baseUrl: "https://x", auth: { type: "bearer", token: "t0ken" } }, "production", "saved");
    expect(JSON.stringify(bearer)).not.toContain("t0ken");
    expect(summarize(null, "production", "environment variables")).toMatchObject({ source: "not configured", baseUrl: null });
  });
});
