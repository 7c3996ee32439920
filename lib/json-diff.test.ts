import { describe, expect, it } from "vitest";
import { canonicalJson, jsonDiff } from "./json-diff";

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
    expect(jsonDiff({ tags: [1, 2, 3] }, { tags: [0, 1, 2, 3] })).toEqual([{ path: "tags", kind: "changed", before: [1, 2, 3], after: [0, 1, 2, 3] }]);
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
