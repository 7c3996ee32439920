import { describe, expect, it } from "vitest";
import { canonicalJson, jsonDiff, recordChanges } from "./json-diff";

describe("jsonDiff", () => {
  it("finds nothing between equal objects, whatever their key order", () => {
    expect(jsonDiff({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toEqual([]);
  });

  it("names added, removed and changed keys by their dotted path, sorted", () => {
    expect(jsonDiff({ keep: 1, gone: "x", nested: { n: 1, m: true } }, { keep: 1, nested: { n: 2, m: true }, fresh: null })).toEqual([
      { path: "fresh", kind: "added", after: null },
      { path: "gone", kind: "removed", before: "x" },
      { path: "nested.n", kind: "changed", before: 1, after: 2 },
    ]);
  });

  it("compares arrays as whole values", () => {
    expect(jsonDiff({ tags: [1, 2, 3] }, { tags: [0, 1, 2, 3] })).toEqual([
      { path: "tags", kind: "changed", before: [1, 2, 3], after: [0, 1, 2, 3] },
    ]);
  });

  it("treats a value that turns from object into scalar (or null) as one change at that path", () => {
    expect(jsonDiff({ a: { b: 1 } }, { a: null })).toEqual([{ path: "a", kind: "changed", before: { b: 1 }, after: null }]);
    expect(jsonDiff(null, { a: 1 })).toEqual([{ path: "", kind: "changed", before: null, after: { a: 1 } }]);
  });
});

describe("canonicalJson", () => {
  it("sorts object keys at every depth and keeps array order", () => {
    expect(canonicalJson({ b: [{ y: 1, x: 2 }], a: "1" })).toBe('{"a":"1","b":[{"x":2,"y":1}]}');
  });
});

describe("an audit record's field diff", () => {
  it("reads a missing side of an object as {}, so each field of a create or a reveal is added", () => {
    expect(recordChanges(null, { reason: "T-1", fields: ["tin"] })).toEqual([
      { path: "fields", kind: "added", after: ["tin"] },
      { path: "reason", kind: "added", after: "T-1" },
    ]);
    expect(recordChanges({ id: "wh_1" }, null)).toEqual([{ path: "id", kind: "removed", before: "wh_1" }]);
    expect(recordChanges(null, null)).toEqual([]);
  });

  it("leaves updated_at out unless nothing else changed", () => {
    const before = { userdata: null, updated_at: "2026-11-25T10:00:00Z" };
    expect(recordChanges(before, { userdata: { t: 1 }, updated_at: "2026-11-25T10:00:05Z" })).toEqual([
      { path: "userdata", kind: "changed", before: null, after: { t: 1 } },
    ]);
    expect(recordChanges(before, { userdata: null, updated_at: "2026-11-25T10:00:05Z" })).toHaveLength(1);
  });
});
