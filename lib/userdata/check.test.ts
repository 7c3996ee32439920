import { describe, expect, it } from "vitest";
import { userdataInput, userdataMaxBytes as contractMax } from "@/lib/contract";
import { checkUserdata, serializedBytes, userdataMaxBytes } from "./check";

/** An object whose compact JSON is exactly `bytes` long: {"k":"xxx…"} is 8 bytes plus the string. */
const objectOf = (bytes: number) => ({ k: "x".repeat(bytes - 8) });

describe("checkUserdata", () => {
  it("keeps the contract's limit", () => {
    expect(userdataMaxBytes).toBe(contractMax);
  });

  it("accepts an object of exactly 1,024 bytes and refuses 1,025, as the contract does", () => {
    const atLimit = JSON.stringify(objectOf(1024), null, 2);
    const over = JSON.stringify(objectOf(1025), null, 2);
    expect(checkUserdata(atLimit)).toEqual({ ok: true, value: objectOf(1024), bytes: 1024 });
    expect(checkUserdata(over)).toMatchObject({ ok: false, bytes: 1025, reason: expect.stringContaining("1025 bytes") });
    expect(userdataInput.safeParse(objectOf(1024)).success).toBe(true);
    expect(userdataInput.safeParse(objectOf(1025)).success).toBe(false);
  });

  it("counts bytes of compact UTF-8, not characters or the editor's indentation", () => {
    expect(serializedBytes({ é: "€" })).toBe('{"é":"€"}'.length + 1 + 2);
    expect(checkUserdata('{\n    "a": 1\n}')).toMatchObject({ ok: true, bytes: 7 });
  });

  it("refuses invalid JSON and every non-object", () => {
    expect(checkUserdata('{"a": }')).toMatchObject({ ok: false, bytes: null, reason: expect.stringMatching(/^Not valid JSON/) });
    expect(checkUserdata("[1,2]")).toMatchObject({ ok: false, reason: expect.stringContaining("not an array") });
    expect(checkUserdata("null")).toMatchObject({ ok: false, reason: expect.stringContaining("not null") });
    expect(checkUserdata('"text"')).toMatchObject({ ok: false, reason: expect.stringContaining("not a string") });
    expect(checkUserdata("42")).toMatchObject({ ok: false, reason: expect.stringContaining("not a number") });
  });
});
