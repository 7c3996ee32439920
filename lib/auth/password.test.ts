import { describe, expect, it } from "vitest";
import { hashPassword, needsRehash, verifyPassword } from "./password";

describe("password hashing", () => {
  it("accepts the password a hash was made from and rejects any other", async () => {
    const stored = await hashPassword("correct horse battery staple");
    expect(await verifyPassword("correct horse battery staple", stored)).toBe(true);
    expect(await verifyPassword("correct horse battery stapler", stored)).toBe(false);
  });

  it("never stores the password itself and salts every hash", async () => {
    const first = await hashPassword("same password");
    const second = await hashPassword("same password");
    expect(first).not.toContain("same password");
    expect(first).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(first).not.toBe(second);
  });

  it("still verifies a hash made with the earlier cost (N=2^15), and says it needs hashing again", async () => {
    // scrypt("legacy password", salt "c2FsdHNhbHRzYWx0c2FsdA==", N=2^15, r=8, p=1), as main stored it before.
    const legacy = "scrypt$32768$8$1$c2FsdHNhbHRzYWx0c2FsdA==$" + (await legacyKey("legacy password"));
    expect(await verifyPassword("legacy password", legacy)).toBe(true);
    expect(needsRehash(legacy)).toBe(true);
    expect(needsRehash(await hashPassword("fresh"))).toBe(false);
  });

  it("rejects every password when the stored hash is missing or malformed", async () => {
    expect(await verifyPassword("", null)).toBe(false);
    expect(await verifyPassword("x", "plain-text-password")).toBe(false);
  });
});

async function legacyKey(password: string): Promise<string> {
  const { scrypt } = await import("node:crypto");
  return new Promise((resolve, reject) =>
    scrypt(password, Buffer.from("c2FsdHNhbHRzYWx0c2FsdA==", "base64"), 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key.toString("base64")),
    ),
  );
}
