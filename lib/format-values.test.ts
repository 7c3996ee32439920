import { describe, expect, it } from "vitest";
import {
  enumWords,
  exactTime,
  formatAmount,
  formatCalendarDate,
  formatDateTime,
  formatExpiry,
  formatFieldText,
  formatSignedAmount,
  formatTimestamp,
  isMaskedText,
  isTimeZone,
  writeOnlyFields,
  zoneName,
} from "./format";

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

describe("dates and times", () => {
  const now = Date.parse("2026-11-23T15:00:00Z");
  const at = "2026-11-17T14:02:09Z";

  it("show the same instant in UTC and in two zones, with the relative form beside it", () => {
    expect(formatDateTime(at, "UTC", now)).toBe("Nov 17, 14:02");
    expect(formatDateTime(at, "Europe/Berlin", now)).toBe("Nov 17, 15:02");
    expect(formatDateTime(at, "America/Los_Angeles", now)).toBe("Nov 17, 06:02");
    expect(formatTimestamp(at, "UTC", now)).toBe("Nov 17, 14:02 · 6 days ago");
    expect(formatTimestamp(at, "Asia/Tokyo", now)).toBe("Nov 17, 23:02 · 6 days ago");
  });

  it("cross midnight and the year in the zone shown, naming the year only when it is not the current one", () => {
    expect(formatDateTime("2026-11-17T23:30:00Z", "Asia/Tokyo", now)).toBe("Nov 18, 08:30");
    expect(formatDateTime("2026-11-18T00:05:00Z", "UTC", now)).toBe("Nov 18, 00:05");
    expect(formatDateTime("2025-12-31T23:30:00Z", "UTC", now)).toBe("Dec 31, 2025, 23:30");
    expect(formatDateTime("2025-12-31T23:30:00Z", "Europe/Berlin", now)).toBe("Jan 1, 00:30");
  });

  it("give the exact second and the zone for the tooltip", () => {
    expect(exactTime(at, "UTC")).toBe("2026-11-17 14:02:09 UTC");
    expect(exactTime(at, "Europe/Berlin")).toBe("2026-11-17 15:02:09 GMT+1 (Europe/Berlin)");
    expect(exactTime(at, "America/New_York")).toBe("2026-11-17 09:02:09 EST (America/New_York)");
    expect(zoneName("2026-07-01T00:00:00Z", "America/New_York")).toBe("EDT");
  });

  it("leave what is not a time as it came, and know real zones from made-up ones", () => {
    expect(formatDateTime("soon", "UTC", now)).toBe("soon");
    expect(formatTimestamp("soon", "UTC", now)).toBe("soon");
    expect(isTimeZone("Europe/Berlin")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
    expect(isTimeZone("")).toBe(false);
    expect(isTimeZone(undefined)).toBe(false);
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
    expect(formatFieldText("json", { ticket: "OPS-1" })).toBe('{"ticket":"OPS-1"}');
    expect(formatFieldText("json", null)).toBe("null");
  });
});
