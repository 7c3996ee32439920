import { describe, expect, it } from "vitest";
import { auditActionWords, isSearchAction } from "./action-words";

describe("audit actions in words", () => {
  it("says what was done, naming the kind of bank object where the action is about one", () => {
    expect(auditActionWords("person_application.reveal")).toBe("Person application: masked fields revealed");
    expect(auditActionWords("fednow.masked_filter")).toBe("Instant payment: list filtered by masked fields");
    expect(auditActionWords("network_transfer.userdata.update")).toBe("Network transfer: userdata changed");
    expect(auditActionWords("search.masked_fields")).toBe("Search over masked fields");
    expect(auditActionWords("review.checklist.mark")).toBe("Checklist item marked");
    expect(auditActionWords("webhook.update")).toBe("Webhook changed");
  });

  it("leaves an action it does not know to its code, rather than guessing", () => {
    expect(auditActionWords("something.new")).toBeNull();
    expect(auditActionWords("unknown_kind.reveal")).toBeNull();
    expect(auditActionWords("constructor")).toBeNull();
  });

  it("tells the records of searches over masked fields", () => {
    expect(["search.masked_fields", "ach.masked_filter", "person_application.reveal", "staff.lock"].filter(isSearchAction)).toEqual([
      "search.masked_fields",
      "ach.masked_filter",
    ]);
  });
});
