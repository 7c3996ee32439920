import { describe, expect, it } from "vitest";
import { firstIssue, newStaffInput, staffIdInput } from "./staff-input";

const valid = { email: "new@bank.example", name: "New Person", role: "viewer", password: "twelve chars!" };
const problem = (input: Record<string, unknown>) => {
  const parsed = newStaffInput.safeParse(input);
  return parsed.success ? null : firstIssue(parsed.error);
};

describe("a new staff user from the form", () => {
  it("accepts a complete user, or one without a password (single sign-on only)", () => {
    expect(problem(valid)).toBeNull();
    expect(problem({ ...valid, password: "" })).toBeNull();
  });

  it("names the field that is wrong", () => {
    expect(problem({ ...valid, email: "not-an-email" })).toBe("email: expected an email address");
    expect(problem({ ...valid, name: "  " })).toBe("name: required");
    expect(problem({ ...valid, role: "root" })).toBe("role: expected one of admin, operations, compliance, viewer");
    expect(problem({ ...valid, password: "short" })).toBe("password: at least 12 characters, or empty for a single sign-on only user");
    expect(problem({ ...valid, name: "New\u0000Person" })).toBe("name: must not contain NUL (U+0000) or unpaired surrogate characters");
    expect(problem({ ...valid, password: "twelve chars \ud800" })).toBe("password: must not contain NUL (U+0000) or unpaired surrogate characters");
  });

  it("accepts only staff ids", () => {
    expect(staffIdInput.safeParse("stf_abc-DEF_1").success).toBe(true);
    expect(staffIdInput.safeParse("'; DROP TABLE").success).toBe(false);
  });
});
