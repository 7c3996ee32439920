import { describe, expect, it } from "vitest";
import { parseAuditQuery } from "./filter-input";

describe("the audit filter in the query string", () => {
  it("reads every filter and the page cursor, dropping empty values", () => {
    expect(parseAuditQuery(new URLSearchParams("actor=ops&action=staff.lock&target=&from=2026-11-01&to=2026-11-30&after=42"))).toEqual({
      ok: true,
      filter: { actor: "ops", action: "staff.lock", from: "2026-11-01", to: "2026-11-30" },
      after: 42,
    });
    expect(parseAuditQuery({ actor: ["first", "second"] })).toEqual({ ok: true, filter: { actor: "first" } });
  });

  it("names the field of a bad value", () => {
    expect(parseAuditQuery(new URLSearchParams("from=22-11-2026"))).toEqual({ ok: false, error: "from: expected a date YYYY-MM-DD" });
    expect(parseAuditQuery(new URLSearchParams("to=2026-02-30"))).toEqual({ ok: false, error: "to: not a calendar date" });
    expect(parseAuditQuery(new URLSearchParams("after=abc"))).toEqual({ ok: false, error: "after: expected a record id" });
    expect(parseAuditQuery(new URLSearchParams("from=2026-12-01&to=2026-11-01"))).toEqual({ ok: false, error: "from: must not be after to" });
  });
});
