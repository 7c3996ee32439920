import { describe, expect, it } from "vitest";
import { applicationKindOf, markSentence, reviewActionWords } from "./words";

// Review steps as people read them (the case panel, an application's timeline, the case record): words, never the
// audit trail's codes.

describe("review steps in words", () => {
  it("says a checklist mark by the item's label and the mark, with its note", () => {
    expect(markSentence("person_application", "date_of_birth", "discrepancy", "passport shows 1980")).toBe(
      "Date of birth marked as a discrepancy: passport shows 1980",
    );
    expect(markSentence("business_application", "identification_number", "verified", null)).toBe(
      "Identification number (EIN / TIN) marked as verified",
    );
    expect(markSentence("business_application", "owner:apsn_1", "not_applicable", null)).toBe("Beneficial owner apsn_1 marked as not applicable");
  });

  it("words an audit record of a review step from its action and what it recorded; the note only for the audit log's readers", () => {
    const mark = { item: "date_of_birth", mark: "discrepancy", note: "passport shows 1980" };
    expect(reviewActionWords("person_application", "review.checklist.mark", mark, true)).toBe(
      "Date of birth marked as a discrepancy: passport shows 1980",
    );
    expect(reviewActionWords("person_application", "review.checklist.mark", mark, false)).toBe("Date of birth marked as a discrepancy");
    expect(
      reviewActionWords("person_application", "review.decision.confirm", { decision: "decline", reasonCode: "identity_not_verified" }, false),
    ).toBe("Decision confirmed by a second reviewer: Decline · Identity could not be verified");
    expect(reviewActionWords("person_application", "review.record.download", { format: "html" }, false)).toBe("Case record downloaded (HTML)");
    expect(reviewActionWords("person_application", "review.assign", null, false)).toBe("Case assigned");
    expect(reviewActionWords("person_application", "person_application.reveal", null, true)).toBeNull();
  });

  it("knows an application's kind by its id's prefix", () => {
    expect(applicationKindOf("abus_123")).toBe("business_application");
    expect(applicationKindOf("apsn_123")).toBe("person_application");
  });
});
