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

  it("hides search records on request, and names a value it does not know", () => {
    expect(parseAuditQuery(new URLSearchParams("searches=hidden"))).toEqual({ ok: true, filter: { searches: "hidden" } });
    expect(parseAuditQuery(new URLSearchParams("searches=yes"))).toEqual({
      ok: false,
      error: 'searches: expected "hidden" (or nothing, to show them)',
    });
  });

  it("names the field of a bad value", () => {
    expect(parseAuditQuery(new URLSearchParams("from=22-11-2026"))).toEqual({ ok: false, error: "from: expected a date YYYY-MM-DD" });
    expect(parseAuditQuery(new URLSearchParams("to=2026-02-30"))).toEqual({ ok: false, error: "to: not a calendar date (years 0001 to 9999)" });
    expect(parseAuditQuery(new URLSearchParams("after=abc"))).toEqual({ ok: false, error: "after: expected a record id" });
    expect(parseAuditQuery(new URLSearchParams("from=2026-12-01&to=2026-11-01"))).toEqual({ ok: false, error: "from: must not be after to" });
  });

  it("refuses what PostgreSQL cannot store or compare: NUL and unpaired surrogates in text, dates before year 1", () => {
    for (const field of ["actor", "action", "target"]) {
      expect(parseAuditQuery(new URLSearchParams(`${field}=%00`))).toEqual({
        ok: false,
        error: `${field}: must not contain NUL (U+0000) or unpaired surrogate characters`,
      });
      expect(parseAuditQuery({ [field]: "a\uD800b" })).toEqual({
        ok: false,
        error: `${field}: must not contain NUL (U+0000) or unpaired surrogate characters`,
      });
    }
    for (const field of ["from", "to"]) {
      expect(parseAuditQuery(new URLSearchParams(`${field}=0000-01-01`))).toEqual({
        ok: false,
        error: `${field}: not a calendar date (years 0001 to 9999)`,
      });
    }
    expect(parseAuditQuery(new URLSearchParams("from=0001-01-01&to=9999-12-31"))).toEqual({
      ok: true,
      filter: { from: "0001-01-01", to: "9999-12-31" },
    });
  });
});
