import { describe, expect, it } from "vitest";
import {
  enumWords,
  formatAmount,
  formatCalendarDate,
  formatExpiry,
  formatFieldText,
  formatMoney,
  formatPhone,
  formatSignedAmount,
  inSentence,
  isMaskedText,
  shortId,
  statusTone,
  valueAt,
  writeOnlyFields,
} from "./values";

describe("money", () => {
  it("groups money by thousands without going through a float", () => {
    expect(formatMoney("1234567.50")).toBe("1,234,567.50");
    expect(formatMoney("99999999999999999.99")).toBe("99,999,999,999,999,999.99");
    expect(formatMoney("0.07")).toBe("0.07");
    expect(formatMoney("not money")).toBe("not money");
  });
});

describe("amounts", () => {
  it("carry their currency and group thousands as text, never through a float", () => {
    expect(formatAmount("1234.56")).toBe("$1,234.56");
    expect(formatAmount("0.07")).toBe("$0.07");
    expect(formatAmount("99999999999999999.99")).toBe("$99,999,999,999,999,999.99");
    expect(formatAmount("-5.00")).toBe("−$5.00");
    expect(formatAmount("12.00", "EUR")).toBe("€12.00");
    expect(formatAmount("12.00", "usd")).toBe("$12.00");
    expect(formatAmount("12.00", "XQZ")).toBe("XQZ 12.00");
  });

  it("leave what is not an amount (a mask) as it came", () => {
    expect(formatAmount("[masked]")).toBe("[masked]");
    expect(formatAmount("12.5")).toBe("12.5");
  });

  it("show credit and debit where the object has a direction", () => {
    expect(formatSignedAmount("58169.77", "credit")).toBe("$58,169.77 CR");
    expect(formatSignedAmount("58169.77", "debit")).toBe("$58,169.77 DR");
    expect(formatSignedAmount("58169.77", undefined)).toBe("$58,169.77");
    expect(formatSignedAmount("58169.77", "sideways")).toBe("$58,169.77");
  });
});

describe("statuses, paths and ids", () => {
  it("colours every status by what it means, one scheme across resources", () => {
    expect(["sent", "done", "active", "enabled"].map(statusTone)).toEqual(["success", "success", "success", "success"]);
    expect(["error", "rejected", "declined", "blocked"].map(statusTone)).toEqual(["danger", "danger", "danger", "danger"]);
    expect(statusTone("returned")).toBe("warning");
    expect(statusTone("something new")).toBe("neutral");
  });

  it("reads dotted paths and shortens ids for the eye only", () => {
    expect(valueAt({ a: { b: 1 } }, "a.b")).toBe(1);
    expect(valueAt({ a: null }, "a.b")).toBeUndefined();
    expect(shortId("ach_78523axhb2a15mho6ev0")).toBe("ach_7852…6ev0");
    expect(shortId("cp_short")).toBe("cp_short");
    expect(inSentence("ACH transfer")).toBe("ACH transfer");
    expect(inSentence("Instant payment")).toBe("instant payment");
  });
});

describe("values as people write them", () => {
  it("shows a date of birth as a date", () => {
    expect(formatCalendarDate("1943-05-12")).toBe("May 12, 1943");
    expect(formatFieldText("date", "1943-05-12")).toBe("May 12, 1943");
  });

  it("groups a phone number", () => {
    expect(formatPhone("+13035550176")).toBe("+1 303 555 0176");
    expect(formatPhone("3035550176")).toBe("+1 303 555 0176");
    expect(formatPhone("(303) 555-0176")).toBe("+1 303 555 0176");
    expect(formatPhone("+442079460958")).toBe("+442079460958");
    expect(formatFieldText("phone", "+13035550176")).toBe("+1 303 555 0176");
    // A mask stays as it is.
    expect(formatPhone("*******0176")).toBe("*******0176");
    expect(formatFieldText("phone", "[masked]")).toBe("[masked]");
  });

  it("writes identification types as people do", () => {
    expect(["ssn", "itin", "ein", "tin", "passport"].map(enumWords)).toEqual(["SSN", "ITIN", "EIN", "TIN", "Passport"]);
  });

  it("show calendar dates without a zone", () => {
    expect(formatCalendarDate("2026-11-17")).toBe("Nov 17, 2026");
    expect(formatCalendarDate("2026-02-30")).toBe("2026-02-30");
    expect(formatCalendarDate("****-**-**")).toBe("****-**-**");
  });
});

describe("enums, expiry, masks and write-only fields", () => {
  it("read enum codes as words", () => {
    expect(enumWords("GOOGLE_PAY")).toBe("Google Pay");
    expect(enumWords("google_pay")).toBe("Google Pay");
    expect(enumWords("soleprop")).toBe("Sole proprietorship");
    expect(enumWords("sole_proprietorship")).toBe("Sole proprietorship");
    expect(enumWords("ppd")).toBe("PPD");
    expect(enumWords("sameday")).toBe("Same day");
    expect(enumWords("credit")).toBe("Credit");
    expect(enumWords("pending_verification")).toBe("Pending verification");
    expect(enumWords("network_transfer.update")).toBe("Network transfer update");
  });

  it("leave text that is not a code as it came", () => {
    expect(enumWords("Jane Doe")).toBe("Jane Doe");
    expect(enumWords("[masked]")).toBe("[masked]");
    expect(enumWords("")).toBe("");
  });

  it("print a card's expiry as MM/YY", () => {
    expect(formatExpiry(3, 2029)).toBe("03/29");
    expect(formatExpiry("12", "2030")).toBe("12/30");
    expect(formatExpiry(13, 2029)).toBe("13/2029");
    expect(formatExpiry("[masked]", "[masked]")).toBe("[masked]/[masked]");
    expect(formatExpiry(null, 2029)).toBe("2029");
  });

  it("know masked values and write-only fields", () => {
    expect(isMaskedText("[masked]")).toBe(true);
    expect(isMaskedText("*****6789")).toBe(true);
    expect(isMaskedText("****-**-**")).toBe(true);
    expect(isMaskedText("acct_123")).toBe(false);
    expect(isMaskedText(1234)).toBe(false);
    expect(writeOnlyFields.has("basic_secret")).toBe(true);
    expect(writeOnlyFields.has("basic_user")).toBe(false);
  });
});

describe("a changed value in a diff", () => {
  const now = Date.parse("2026-11-23T15:00:00Z");
  it("reads by the field's format, the same rules as the detail rows", () => {
    expect(formatFieldText("money", "1234.50")).toBe("$1,234.50");
    expect(formatFieldText("timestamp", "2026-11-17T14:02:09Z", "Europe/Berlin", now)).toBe("Nov 17, 15:02");
    expect(formatFieldText("date", "2026-11-17")).toBe("Nov 17, 2026");
    expect(formatFieldText("enum", "soleprop")).toBe("Sole proprietorship");
    expect(formatFieldText("status", "pending_verification")).toBe("Pending verification");
    expect(formatFieldText("boolean", true)).toBe("yes");
    expect(formatFieldText("text", "Escrow release")).toBe("Escrow release");
  });

  it("shows masks as masks, and values of fields it does not know as JSON", () => {
    expect(formatFieldText("money", "[masked]")).toBe("[masked]");
    expect(formatFieldText(undefined, "[masked]")).toBe("[masked]");
    expect(formatFieldText(undefined, "OPS-1")).toBe('"OPS-1"');
    // Times and dates read as everywhere whatever their field (a console record's `expiresAt`).
    expect(formatFieldText(undefined, "2026-11-30T03:25:30.574Z", "UTC", now)).toBe("Nov 30, 03:25");
    expect(formatFieldText(undefined, "2026-11-30")).toBe("Nov 30, 2026");
    expect(formatFieldText(undefined, "2026-02-30")).toBe('"2026-02-30"');
    expect(formatFieldText("json", { ticket: "OPS-1" })).toBe('{"ticket":"OPS-1"}');
    expect(formatFieldText("json", null)).toBe("null");
  });
});
