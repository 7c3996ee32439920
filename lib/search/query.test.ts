import { describe, expect, it } from "vitest";
import { searchDocument, searchFields } from "./document";
import { amountOf, amountRangeOf, idInUrl, nearAmountOf, parseSearchQuery, wordsOf } from "./query";

describe("reading a search query", () => {
  it("reads amounts in every common form as cents, and nothing else as an amount", () => {
    expect(["1234.56", "1,234.56", "$1,234.56", "$ 1234.56", "1234.56 USD"].map(amountOf)).toEqual([123456, 123456, 123456, 123456, 123456]);
    expect(amountOf("1234.5")).toBe(123450);
    expect(amountOf("1234")).toBe(123400);
    expect(amountOf("0.07")).toBe(7);
    for (const text of ["12,34.56", "1234.567", "-5.00", "$-5", "ach_12", "12 34", "", "99999999999999.00"]) expect(amountOf(text)).toBeNull();
  });

  it("takes the id out of a pasted console or bank URL, and leaves other URLs alone", () => {
    expect(idInUrl("http://localhost:3000/ach/ach_1ec8vcn0")).toBe("ach_1ec8vcn0");
    expect(idInUrl("https://bank.example/v1/apply/person_application/apsn_x1y2?expand=1")).toBe("apsn_x1y2");
    expect(idInUrl("https://console.example/ach/ach_abc/timeline")).toBe("ach_abc");
    expect(idInUrl("https://console.example/events?object=fednow_9z")).toBe("fednow_9z");
    expect(idInUrl("https://example.com/about")).toBeNull();
    expect(idInUrl("ach_abc")).toBeNull();
  });

  it("trims and collapses blanks, refuses an empty or overlong query, and reads each meaning it may have", () => {
    expect(parseSearchQuery("   ach_abc12  ")).toEqual({
      ok: true,
      query: { text: "ach_abc12", id: "ach_abc12", amountCents: null, amountRange: null, words: ["ach_abc12"] },
    });
    expect(parseSearchQuery("https://c.example/card/card_77")).toEqual({
      ok: true,
      query: { text: "card_77", id: "card_77", amountCents: null, amountRange: null, words: ["card_77"] },
    });
    expect(parseSearchQuery("  Ada   Lovelace ")).toEqual({
      ok: true,
      query: { text: "Ada Lovelace", id: null, amountCents: null, amountRange: null, words: ["ada", "lovelace"] },
    });
    expect(parseSearchQuery("$1,234.56")).toMatchObject({ ok: true, query: { amountCents: 123456, words: ["1", "234.56"] } });
    expect(parseSearchQuery("   ")).toEqual({ ok: false, error: "q: type something to search for" });
    expect(parseSearchQuery(null)).toEqual({ ok: false, error: "q: type something to search for" });
    expect(parseSearchQuery("x".repeat(201))).toEqual({ ok: false, error: "q: at most 200 characters" });
    expect(parseSearchQuery("a\u0000b")).toEqual({ ok: false, error: "q: contains characters that cannot be searched" });
  });

  it("reads an amount without cents as the amounts within 2% of it, and one with cents as that amount alone", () => {
    expect(nearAmountOf("1350")).toEqual({ minCents: 132300, maxCents: 137700, near: 135000 });
    expect(nearAmountOf("$1,352")).toEqual({ minCents: 132496, maxCents: 137904, near: 135200 });
    expect(nearAmountOf("1352.14")).toBeNull();
    expect(nearAmountOf("$1,352.10")).toBeNull();
    expect(nearAmountOf("Summit")).toBeNull();
    expect(parseSearchQuery("1350")).toMatchObject({ ok: true, query: { amountCents: 135000, amountRange: { near: 135000 } } });
    expect(parseSearchQuery("$1,352.14")).toMatchObject({ ok: true, query: { amountCents: 135214, amountRange: null } });
  });

  it("reads ranges of amounts as Stripe's search writes them, in dollars, alone or beside words", () => {
    expect(amountRangeOf(">1000")).toEqual({ minCents: 100001, maxCents: null, near: null });
    expect(amountRangeOf(">=1000")).toEqual({ minCents: 100000, maxCents: null, near: null });
    expect(amountRangeOf("<50")).toEqual({ minCents: null, maxCents: 4999, near: null });
    expect(amountRangeOf("<= $50.25")).toEqual({ minCents: null, maxCents: 5025, near: null });
    expect(amountRangeOf("1000..1500")).toEqual({ minCents: 100000, maxCents: 150000, near: null });
    expect(amountRangeOf("amount:$1,000..$1,500.50")).toEqual({ minCents: 100000, maxCents: 150050, near: null });
    for (const text of ["1500..1000", "<0", ">abc", "1000", "..5", "ach_1..2"]) expect(amountRangeOf(text)).toBeNull();
    expect(parseSearchQuery(" >1000 ")).toEqual({
      ok: true,
      query: { text: "", id: null, amountCents: null, amountRange: { minCents: 100001, maxCents: null, near: null }, words: [] },
    });
    expect(parseSearchQuery("Summit Media >2000")).toMatchObject({
      ok: true,
      query: { text: "Summit Media", amountCents: null, amountRange: { minCents: 200001, maxCents: null }, words: ["summit", "media"] },
    });
  });

  it("keeps query words free of full-text query syntax", () => {
    expect(wordsOf("a & b | !c:* 'd' (e)")).toEqual(["a", "b", "c", "d", "e"]);
    expect(wordsOf("ada.lovelace@example.com")).toEqual(["ada.lovelace@example.com"]);
  });
});

describe("the search document of an object", () => {
  it("puts fields a viewer sees in full in the public text, userdata apart, and masked fields in the personal text only", () => {
    const application = {
      id: "apsn_1",
      first_name: "Ada",
      last_name: "Lovelace",
      email_address: "ada@example.com",
      identification_number: "912-34-6789",
      date_of_birth: "1990-04-01",
      userdata: { referral: "branch" },
      bankdata: { kyc_vendor: "alloy" },
      created_at: "2025-01-01T00:00:00Z",
    };
    const document = searchDocument("person_application", application);
    expect(document.publicText.split("\n")).toEqual(["apsn_1", "Ada", "Lovelace"]);
    expect(document.userdataText.split("\n")).toEqual(["referral", "branch"]);
    expect(document.personalText.split("\n")).toEqual(["ada@example.com", "912-34-6789", "6789", "1990-04-01", "19900401".slice(-4), "alloy"]);
    expect(document.amountCents).toBeNull();
  });

  it("lets every role search the visible last four of an account number, not the number", () => {
    const fields = searchFields("counterparty", { id: "cp_1", name: "Acme", ach: { account_number: "000123456789", routing_number: "021000021" } });
    expect(fields.filter((field) => field.visibility === "public").map((field) => field.value)).toEqual(["cp_1", "Acme", "6789", "021000021"]);
    expect(fields.filter((field) => field.visibility === "personal").map((field) => field.value)).toEqual(["000123456789"]);
  });

  it("reads the amount in cents", () => {
    expect(searchDocument("ach", { id: "ach_1", amount: "1234.50" }).amountCents).toBe(123450);
    expect(searchDocument("ach", { id: "ach_1", amount: "12" }).amountCents).toBeNull();
  });
});
