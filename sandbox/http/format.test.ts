import { describe, expect, it } from "vitest";
import { rowFormat, timestampText } from "./format";

describe("rendering rows from PostgreSQL's text output", () => {
  it("cuts a UTC timestamp to YYYY-MM-DDTHH:MM:SSZ, dropping fractions of a second", () => {
    expect(timestampText("2026-11-21 23:53:58+00")).toBe("2026-11-21T23:53:58Z");
    expect(timestampText("2026-11-21 23:53:58.987654+00")).toBe("2026-11-21T23:53:58Z");
  });

  it("converts a timestamp printed in another time zone to UTC", () => {
    expect(timestampText("2026-11-21 18:53:58-05")).toBe("2026-11-21T23:53:58Z");
    expect(timestampText("2026-11-22 05:23:58+05:30")).toBe("2026-11-21T23:53:58Z");
  });

  it("renders each kind of field as JSON, with null for missing values, in the given order", () => {
    const format = rowFormat([
      { name: "id", kind: "text" },
      { name: "amount", kind: "money" },
      { name: "cross_bank", kind: "boolean" },
      { name: "effective_date", kind: "date" },
      { name: "created_at", kind: "timestamp" },
      { name: "userdata", kind: "json" },
      { name: "attempt", kind: "integer" },
      { name: "basic_secret", kind: "null", column: "secret" },
      { name: "description", kind: "text" },
    ]);
    expect(format.columns).toBe('"id", "amount", "cross_bank", "effective_date", "created_at", "userdata", "attempt", NULL, "description"');
    const json = format.render(['nt_"1', "12.50", "t", "2026-11-23", "2026-11-21 23:53:58+00", '{"a": [1, "x"]}', "3", null, null]);
    expect(json).toBe(
      '{"id":"nt_\\"1","amount":"12.50","cross_bank":true,"effective_date":"2026-11-23","created_at":"2026-11-21T23:53:58Z",' +
        '"userdata":{"a": [1, "x"]},"attempt":3,"basic_secret":null,"description":null}',
    );
    expect(JSON.parse(json)).toMatchObject({ cross_bank: true, userdata: { a: [1, "x"] }, basic_secret: null });
  });
});
