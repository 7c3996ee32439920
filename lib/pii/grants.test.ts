import { describe, expect, it } from "vitest";
import { listedResources } from "@/lib/contract/operations";
import { exposedOperations } from "@/lib/api/bank-allowlist";
import { listQueries } from "@/lib/contract/requests";
import { can, roles, type Role } from "@/lib/permissions";
import { mayFilterBy, maskedFilters } from "@/lib/search/masked-filters";
import { searchableBy } from "@/lib/search/searchable";
import { allowlists, maskForViewer, seesAllUnmasked, seesUnmasked, shownInAnswer, type MaskedResource } from "@/lib/pii";

describe("one table of who sees what: the proxy, search and list filters agree for every kind and role", () => {
  const kinds = Object.keys(allowlists) as MaskedResource[];
  const paging = new Set(["page_size", "page_cursor"]);
  /** What the proxy's routes let a role read unmasked of a kind: the reveal of every object it can GET, the userdata editor's read. */
  const proxyUnmaskedReads = (kind: MaskedResource, role: Role) => {
    const reads = exposedOperations.filter((exposed) => exposed.resource === kind);
    return {
      everything: can(role, "pii:reveal") && reads.some((exposed) => exposed.operationId.startsWith("get_")),
      userdata: reads.some((exposed) => exposed.editableUserdata !== undefined && can(role, exposed.editableUserdata)),
    };
  };

  it.each(kinds.flatMap((kind) => roles.map((role) => [kind, role] as const)))("%s as %s", (kind, role) => {
    const reads = proxyUnmaskedReads(kind, role);
    expect(seesAllUnmasked(kind, role)).toBe(reads.everything);
    expect(seesUnmasked(kind, role, "userdata")).toBe(reads.everything || reads.userdata);
    // What a role sees in the answer itself it sees unmasked everywhere.
    for (const field of shownInAnswer(kind, role)) expect(seesUnmasked(kind, role, field)).toBe(true);

    if (kind in listedResources) {
      const parts = searchableBy(role);
      const matchable = (visibility: string) => parts.some((part) => part.visibility === visibility && (part.kinds as string[]).includes(kind));
      expect(matchable("public")).toBe(true);
      expect(matchable("userdata")).toBe(seesUnmasked(kind, role, "userdata"));
      expect(matchable("personal")).toBe(seesAllUnmasked(kind, role));
    }

    // A filter compares a field: refused exactly where the proxy would mask that field for this role.
    const names = Object.keys(listQueries[kind].shape).filter((name) => !paging.has(name));
    for (const name of names) {
      const field = { trace_suffix: "trace_number", from_date: "created_at", to_date: "created_at" }[name] ?? name;
      const probe = "123456789";
      const maskedForViewers = maskForViewer(kind, { [field]: probe })[field] !== probe;
      const { refused, unmasked } = maskedFilters(kind, role, { [name]: probe });
      expect(refused, `${kind}.${name}`).toEqual(maskedForViewers && !seesUnmasked(kind, role, field) ? [name] : []);
      expect(Object.keys(unmasked), `${kind}.${name}`).toEqual(maskedForViewers && seesUnmasked(kind, role, field) ? [name] : []);
    }
  });

  it("lets every role filter any list by when its objects were created or last changed, as Home's figures link", () => {
    for (const kind of Object.keys(listedResources) as MaskedResource[]) {
      for (const role of roles) {
        expect(
          maskedFilters(kind, role, { created_in: "2026-11-28T05:00:00Z/", updated_in: "/2026-11-29T05:00:00Z" }).refused,
          `${kind} ${role}`,
        ).toEqual([]);
      }
    }
  });

  it("refuses a viewer and operations a fednow filter by external account number, and lets compliance and admin use it", () => {
    expect(roles.filter((role) => maskedFilters("fednow", role, { external_account_number: "123456789" }).refused.length > 0)).toEqual([
      "operations",
      "viewer",
    ]);
    expect(roles.filter((role) => mayFilterBy("fednow", role, "external_account_number"))).toEqual(["admin", "compliance"]);
  });
});
