import { describe, expect, it } from "vitest";
import { defaultQueueFilter, queueCursorFrom, queueCursorText, queueFilterFrom } from "./filter";

describe("the review queue's filters from the URL", () => {
  it("reads every filter", () => {
    expect(queueFilterFrom({ assignee: "mine", kind: "business_application", age: "7d", state: "awaiting_second_review" })).toEqual({
      filter: { assignee: "mine", kind: "business_application", minAgeHours: 168, state: "awaiting_second_review" },
      problems: [],
    });
  });

  it("defaults to every undecided application, and treats empty values as unset", () => {
    expect(queueFilterFrom({})).toEqual({ filter: defaultQueueFilter, problems: [] });
    expect(queueFilterFrom({ assignee: "", kind: "", age: "", state: "" })).toEqual({ filter: defaultQueueFilter, problems: [] });
  });

  it("names each unknown value and keeps the default for it", () => {
    expect(queueFilterFrom({ assignee: "yours", kind: "card", age: "3h", state: "approved", extra: "x" })).toEqual({
      filter: defaultQueueFilter,
      problems: [
        "assignee: expected mine, unassigned or any",
        "kind: expected person_application, business_application or any",
        "age: expected one of 1d, 2d, 7d, 30d",
        "state: expected undecided, open, awaiting_second_review, decided or any",
      ],
    });
    expect(queueFilterFrom({ kind: ["any", "any"] }).problems).toEqual(["kind: given more than once"]);
  });

  it("reads the page cursor the pager writes, and names one it did not write", () => {
    for (const cursor of [
      { createdMicros: "1767225600000002", id: "apsn_1" },
      { createdMicros: null, id: "abus_x-y" },
    ])
      expect(queueCursorFrom(queueCursorText(cursor))).toEqual({ cursor });
    expect(queueCursorFrom(undefined)).toEqual({});
    for (const bad of ["1767225600000002", "soon.apsn_1", "1.apsn 1", "1.a,b", ["1.a", "2.b"]])
      expect(queueCursorFrom(bad)).toEqual({ problem: "page_cursor: not a page of this queue (showing its first page)" });
  });
});
