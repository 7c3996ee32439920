import { describe, expect, it } from "vitest";
import { safeReturnPath } from "./safe-redirect";

describe("the path to return to after sign-in", () => {
  it("keeps a path on this site, with its query", () => {
    expect(safeReturnPath("/audit?actor=ops")).toBe("/audit?actor=ops");
  });

  it("refuses anything that could leave the site or loop back to sign-in", () => {
    for (const value of ["https://evil.example/", "//evil.example", "/\\evil.example", "audit", "/sign-in?from=/", "/api/auth/signout", undefined, 42]) {
      expect(safeReturnPath(value)).toBe("/");
    }
  });

  it("refuses control characters, which a Location header cannot carry (GET /sign-in?from=%2F%0A%2Fx answered 500)", () => {
    for (const value of ["/\n/x", "/a\r\nSet-Cookie: x=1", "/\t/evil.example", "/a\u0000b", "/a\u007f"]) expect(safeReturnPath(value)).toBe("/");
  });
});
