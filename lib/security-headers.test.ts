import { describe, expect, it } from "vitest";
import { pageContentSecurityPolicy } from "./security-headers";

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
