import { describe, expect, it } from "vitest";
import { strayTimes } from "@/lib/format";
import { caseRecordHtml, type BuiltCaseRecord } from "./record";

// The case record's HTML (docs/reviews.md): its times in the console's one format, the year always written, in UTC as
// its header says, each with the exact second in `datetime` and the tooltip.

const decided = "2026-11-23T14:05:09.123Z";
const built: BuiltCaseRecord = {
  record: {
    format: "bank-console/review-case-record@1",
    generatedAt: "2026-11-29T03:27:34.000Z",
    generatedBy: { id: "u1", email: "compliance@demo.bank", role: "compliance" },
    environment: "sandbox",
    retention: { years: 5, note: "Kept for 5 years." },
    application: {
      id: "apsn_1",
      kind: "person_application",
      bankCreatedAt: "2026-11-20T09:00:00Z",
      state: { first_name: "Ada", last_name: "Byron", created_at: "2026-11-20T09:00:00Z" },
    },
    case: {
      state: "decided",
      assigneeId: "u1",
      assigneeEmail: "compliance@demo.bank",
      assignedAt: "2026-11-22T10:00:00Z",
      decision: "decline",
      reasonCode: "identity_not_verified",
      decidedAt: decided,
      reasonLabel: "Identity could not be verified",
    },
    checklist: [
      {
        item: "identity",
        label: "Identity",
        mark: "discrepancy",
        markedByEmail: "compliance@demo.bank",
        markedAt: "2026-11-22T11:00:00Z",
        notes: [
          { id: 1, authorId: "u1", authorEmail: "compliance@demo.bank", at: "2026-11-22T11:01:00Z", text: "utility bill shows another street" },
        ],
      },
    ],
    notes: [{ id: 2, authorId: "u1", authorEmail: "compliance@demo.bank", at: "2026-11-22T12:00:00Z", text: "Called the applicant" }],
    decisions: [],
    reveals: [
      {
        at: "2026-11-22T13:00:00Z",
        actorEmail: "compliance@demo.bank",
        role: "compliance",
        fields: ["ssn"],
        reason: "check",
        expiresAt: null,
        requestId: "r1",
      },
    ],
    auditTrail: [
      {
        at: "2026-11-22T10:00:00Z",
        action: "review.assign",
        actorEmail: "compliance@demo.bank",
        role: "compliance",
        outcome: "success",
        error: null,
        requestId: "r0",
      },
    ],
  },
  steps: ["Case assigned"],
};

/** The text a reader sees: tags, attributes and the Raw JSON block (the application as the bank gave it) left out. */
const readerText = (html: string) =>
  html
    .replace(/<style>[\s\S]*?<\/style>/, "")
    .replace(/<pre>[\s\S]*?<\/pre>/g, "")
    .replace(/<[^>]+>/g, " ");

describe("the case record's times", () => {
  const html = caseRecordHtml(built);

  it("are in the one format with the year, the exact second kept in the element", () => {
    expect(html).toContain(`<time datetime="${decided}" title="2026-11-23 14:05:09 UTC">Nov 23, 2026, 14:05</time>`);
    expect(html).toContain(`generated <time datetime="2026-11-29T03:27:34.000Z" title="2026-11-29 03:27:34 UTC">Nov 29, 2026, 03:27</time>`);
    expect(readerText(html)).toContain("Nov 22, 2026, 11:01 compliance@demo.bank: utility bill shows another street");
  });

  it("leave no other way of writing a time in the text a reader sees", () => {
    expect(strayTimes(readerText(html))).toEqual([]);
  });
});
