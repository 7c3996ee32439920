import { describe, expect, it } from "vitest";
import { can, isRole, permissions, permissionsOf, roles } from "./permissions";

describe("the permissions table", () => {
  it("gives admin every permission", () => {
    expect(permissionsOf("admin")).toEqual(permissions);
  });

  it("lets operations change bank objects but not see personal data, the audit log, staff or credentials", () => {
    expect(permissionsOf("operations")).toEqual([
      "bank:read",
      "bank:userdata:write",
      "webhook:write",
      "simulation:run",
      "card:token",
      "change:approve",
      "view:share",
      "sandbox:control",
    ]);
  });

  it("lets compliance read, reveal personal data, read the audit log and review applications, and change nothing at the bank", () => {
    expect(permissionsOf("compliance")).toEqual(["bank:read", "pii:reveal", "audit:read", "review:decide", "review:confirm", "view:share"]);
  });

  it("lets only compliance and admin decide and confirm reviews", () => {
    expect(roles.filter((role) => can(role, "review:decide"))).toEqual(["admin", "compliance"]);
    expect(roles.filter((role) => can(role, "review:confirm"))).toEqual(["admin", "compliance"]);
  });

  it("lets every role but viewer share a saved view with every staff member", () => {
    expect(roles.filter((role) => can(role, "view:share"))).toEqual(["admin", "operations", "compliance"]);
  });

  it("lets operations and admin drive the sandbox bank, and only admin reset it or take and restore its snapshots", () => {
    expect(roles.filter((role) => can(role, "sandbox:control"))).toEqual(["admin", "operations"]);
    expect(roles.filter((role) => can(role, "sandbox:reset"))).toEqual(["admin"]);
  });

  it("gives viewer read access only", () => {
    expect(permissionsOf("viewer")).toEqual(["bank:read"]);
  });

  it("lets every role read bank objects", () => {
    for (const role of roles) expect(can(role, "bank:read")).toBe(true);
  });

  it("gives nothing to a missing or unknown role", () => {
    expect(can(null, "bank:read")).toBe(false);
    expect(can(undefined, "bank:read")).toBe(false);
    expect(can("root" as never, "bank:read")).toBe(false);
    expect(isRole("root")).toBe(false);
    expect(isRole("admin")).toBe(true);
  });
});
