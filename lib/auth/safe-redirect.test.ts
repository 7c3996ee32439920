import { describe, expect, it } from "vitest";
import { safeRedirectUrl, safeReturnPath } from "./safe-redirect";

describe("the path to return to after sign-in", () => {
  it("keeps a path on this site, with its query and fragment", () => {
    expect(safeReturnPath("/audit?actor=ops")).toBe("/audit?actor=ops");
    expect(safeReturnPath("/settings/staff#top")).toBe("/settings/staff#top");
  });

  it("refuses anything that could leave the site or loop back to sign-in", () => {
    const refused = [
      "https://evil.example/",
      "//evil.example",
      "/\\evil.example",
      "/\t/evil.example", // the reported case: the URL parser drops the tab, leaving //evil.example
      "/\n/evil.example",
      "/\r\n/evil.example",
      "/\u0000/evil.example",
      "\t//evil.example",
      "/%2F/../\t/evil.example",
      "javascript:alert(1)",
      "/javascript:alert(1)\\",
      "data:text/html,hi",
      "audit",
      "",
      "/sign-in?from=/",
      "/sign-in",
      "/api/auth/signout",
      "/audit/../sign-in",
      undefined,
      42,
    ];
    for (const value of refused) expect(safeReturnPath(value), JSON.stringify(value)).toBe("/");
  });

  it("keeps encoded slashes encoded, so they stay one path segment on the console", () => {
    // `from=%2F%252Fevil.example` arrives as "/%2Fevil.example": a path on this site, never a host.
    expect(safeReturnPath("/%2Fevil.example")).toBe("/%2Fevil.example");
    expect(safeReturnPath("/%2F%2Fevil.example")).toBe("/%2F%2Fevil.example");
  });

  it("resolves dot segments before deciding, as the browser will", () => {
    expect(safeReturnPath("/a/../audit")).toBe("/audit");
    expect(safeReturnPath("/..//evil.example")).toBe("/");
  });
});

describe("Auth.js redirects", () => {
  const base = "http://127.0.0.1:3000";

  it("keeps same-origin URLs and paths", () => {
    expect(safeRedirectUrl("http://127.0.0.1:3000/audit?x=1", base)).toBe("http://127.0.0.1:3000/audit?x=1");
    expect(safeRedirectUrl("/audit", base)).toBe("http://127.0.0.1:3000/audit");
    expect(safeRedirectUrl("/sign-in", base)).toBe("http://127.0.0.1:3000/sign-in");
  });

  it("sends anything else to the console's home page", () => {
    for (const value of ["https://evil.example/", "//evil.example/", "/\t/evil.example", "http://127.0.0.1:3001/", "javascript:alert(1)"]) {
      expect(safeRedirectUrl(value, base), value).toBe("http://127.0.0.1:3000/");
    }
  });
});
