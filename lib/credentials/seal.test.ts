import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseEncryptionKey, seal, SealError, unseal } from "./seal";

const key = randomBytes(32);

describe("sealing stored credentials with AES-256-GCM", () => {
  it("gives back the plaintext it sealed, and never contains it", () => {
    const sealed = seal('{"secret":"s3cr3t-value"}', key, "production");
    expect(sealed).not.toContain("s3cr3t");
    expect(unseal(sealed, key, "production")).toBe('{"secret":"s3cr3t-value"}');
  });

  it("uses a fresh nonce every time", () => {
    expect(seal("same", key, "sandbox")).not.toBe(seal("same", key, "sandbox"));
  });

  it("refuses another key, another environment and any tampering", () => {
    const sealed = seal("secret", key, "production");
    expect(() => unseal(sealed, randomBytes(32), "production")).toThrow(SealError);
    expect(() => unseal(sealed, key, "sandbox")).toThrow(SealError);
    const [version, iv, tag, body] = sealed.split(".") as [string, string, string, string];
    const flipped = Buffer.from(body, "base64url");
    flipped[0]! ^= 1;
    expect(() => unseal([version, iv, tag, flipped.toString("base64url")].join("."), key, "production")).toThrow(SealError);
    expect(() => unseal("garbage", key, "production")).toThrow(/not in a known sealed format/);
  });

  it("reads a key as 64 hex digits or as base64, and refuses any other length", () => {
    expect(parseEncryptionKey(key.toString("hex"))).toEqual(key);
    expect(parseEncryptionKey(key.toString("base64"))).toEqual(key);
    expect(() => parseEncryptionKey("c2hvcnQ=")).toThrow(/32 bytes/);
  });
});
