import { describe, expect, it } from "vitest";
import { checkUserdata } from "./check";
import { objectIn, objectOf, rowsOf } from "./key-values";

describe("userdata as keys and values", () => {
  const userdata = { ticket: "OPS-4821", attempts: 2, vip: true, tags: ["a", "b"], owner: { team: "payments" }, closed: null };

  it("reads each top-level key as a row: strings as text, anything else as its JSON", () => {
    expect(rowsOf(userdata)).toEqual([
      { key: "ticket", value: "OPS-4821", kind: "text" },
      { key: "attempts", value: "2", kind: "json" },
      { key: "vip", value: "true", kind: "json" },
      { key: "tags", value: '["a","b"]', kind: "json" },
      { key: "owner", value: '{"team":"payments"}', kind: "json" },
      { key: "closed", value: "null", kind: "json" },
    ]);
  });

  it("writes the rows back to the same object, so nothing changes unless a row does", () => {
    expect(objectOf(rowsOf(userdata))).toEqual({ ok: true, value: userdata });
  });

  it("adds, changes and removes a key without any JSON written by hand", () => {
    const rows = rowsOf({ ticket: "OPS-1", note: "old" });
    rows[0]!.value = "OPS-2";
    rows.splice(1, 1);
    rows.push({ key: "callback", value: 'Tuesday 3 pm, ask for "Sam"', kind: "text" });
    expect(objectOf(rows)).toEqual({ ok: true, value: { ticket: "OPS-2", callback: 'Tuesday 3 pm, ask for "Sam"' } });
  });

  it("keeps text as typed: digits written as text stay a string", () => {
    expect(objectOf([{ key: "zip", value: "02134", kind: "text" }])).toEqual({ ok: true, value: { zip: "02134" } });
    expect(objectOf([{ key: "zip", value: "2134", kind: "json" }])).toEqual({ ok: true, value: { zip: 2134 } });
  });

  it("names each row's problem: an empty key, a repeated key, a JSON value that is not JSON", () => {
    expect(
      objectOf([
        { key: " ", value: "x", kind: "text" },
        { key: "a", value: "1", kind: "text" },
        { key: "a", value: "2", kind: "text" },
        { key: "b", value: "{oops", kind: "json" },
      ]),
    ).toEqual({
      ok: false,
      problems: [
        { row: 0, problem: "A key needs a name." },
        { row: 2, problem: "The key a is there twice." },
        { row: 3, problem: expect.stringContaining("The value of b is not JSON") },
      ],
    });
  });

  it("keeps a key named __proto__ a plain key, which the size check then counts", () => {
    const made = objectOf([{ key: "__proto__", value: "x", kind: "text" }]);
    expect(made.ok && Object.keys(made.value)).toEqual(["__proto__"]);
    expect(made.ok && Object.getPrototypeOf(made.value)).toBe(Object.prototype);
    expect(checkUserdata(JSON.stringify(made.ok ? made.value : null))).toMatchObject({ ok: true, bytes: 17 });
  });
});

describe("the JSON the keys follow", () => {
  it("is any object, too large ones included; anything else leaves the keys as they were", () => {
    expect(objectIn('{"a": 1}')).toEqual({ a: 1 });
    expect(objectIn(JSON.stringify({ k: "x".repeat(2000) }))).toEqual({ k: "x".repeat(2000) });
    for (const text of ['{"a": ', "[1]", "null", '"text"', "42"]) expect(objectIn(text), text).toBeNull();
  });
});
