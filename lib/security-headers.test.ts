import { describe, expect, it } from "vitest";
import { pageContentSecurityPolicy, responseHeaders, setDataResponseHeaders } from "./security-headers";

describe("the pages' Content-Security-Policy", () => {
  it("allows scripts only by nonce, never eval, and forbids framing in production", () => {
    const policy = pageContentSecurityPolicy({ nonce: "abc", development: false });
    expect(policy).toContain("script-src 'self' 'nonce-abc' 'strict-dynamic'");
    expect(policy).not.toContain("unsafe-eval");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("object-src 'none'");
  });

  it("allows eval in development only, and single sign-on's origin as a form target when configured", () => {
    expect(pageContentSecurityPolicy({ nonce: "n", development: true })).toContain("'unsafe-eval'");
    expect(pageContentSecurityPolicy({ nonce: "n", development: false, extraFormActions: ["https://sso.bank.example"] })).toContain(
      "form-action 'self' https://sso.bank.example",
    );
  });
});

describe("headers on every page and API answer", () => {
  it("forbid storing the answer", () => {
    expect(responseHeaders({ protocol: "http:", forwardedProto: null })["Cache-Control"]).toBe("no-store");
  });

  it("keep a handler's no-transform (an event stream must not be compressed or buffered) beside no-store", () => {
    const stream = new Headers({ "Cache-Control": "no-store, no-transform" });
    setDataResponseHeaders(stream, { url: { protocol: "http:" }, forwardedProto: null });
    expect(stream.get("Cache-Control")).toBe("no-store, no-transform");
    const json = new Headers({ "Cache-Control": "max-age=60" });
    setDataResponseHeaders(json, { url: { protocol: "http:" }, forwardedProto: null });
    expect(json.get("Cache-Control")).toBe("no-store");
  });

  it("add HSTS only when the request arrived over https", () => {
    expect(responseHeaders({ protocol: "http:", forwardedProto: null })).not.toHaveProperty("Strict-Transport-Security");
    expect(responseHeaders({ protocol: "https:", forwardedProto: null })["Strict-Transport-Security"]).toBe("max-age=31536000");
    expect(responseHeaders({ protocol: "http:", forwardedProto: "https" })["Strict-Transport-Security"]).toBe("max-age=31536000");
    expect(responseHeaders({ protocol: "http:", forwardedProto: "http" })).not.toHaveProperty("Strict-Transport-Security");
  });

  it("add includeSubDomains to HSTS where HSTS_INCLUDE_SUBDOMAINS=on configures it", () => {
    expect(responseHeaders({ protocol: "https:", forwardedProto: null, includeSubDomains: true })["Strict-Transport-Security"]).toBe(
      "max-age=31536000; includeSubDomains",
    );
    const saved = process.env.HSTS_INCLUDE_SUBDOMAINS;
    process.env.HSTS_INCLUDE_SUBDOMAINS = "on";
    try {
      expect(responseHeaders({ protocol: "https:", forwardedProto: null })["Strict-Transport-Security"]).toBe("max-age=31536000; includeSubDomains");
    } finally {
      if (saved === undefined) delete process.env.HSTS_INCLUDE_SUBDOMAINS;
      else process.env.HSTS_INCLUDE_SUBDOMAINS = saved;
    }
    expect(responseHeaders({ protocol: "https:", forwardedProto: null })["Strict-Transport-Security"]).toBe("max-age=31536000");
  });
});
