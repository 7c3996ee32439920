import { describe, expect, it } from "vitest";
import { resources } from "./index";
import { detailTitle, listTitle } from "./titles";

describe("browser titles of the bank pages", () => {
  it("names a list by its definition's title", () => {
    expect(listTitle(resources.ach)).toBe("ACH transfers");
    expect(listTitle(resources.digital_wallet_token)).toBe(resources.digital_wallet_token.title);
  });

  it("names a detail page's object: singular, id and the headline amount in dollars", () => {
    expect(detailTitle(resources.ach, "ach_7f52", { id: "ach_7f52", amount: "58169.77", currency: "USD" })).toBe(
      "ACH transfer ach_7f52 · $58,169.77",
    );
    expect(detailTitle(resources.ach, "ach_1", { amount: "-12.00" })).toBe("ACH transfer ach_1 · -$12.00");
    expect(detailTitle(resources.fednow, "fn_1", { amount: "1000.00", currency: "EUR" })).toBe(`${resources.fednow.singular} fn_1 · 1,000.00 EUR`);
  });

  it("shows a text headline, but never a masked, empty or missing one", () => {
    expect(detailTitle(resources.counterparty, "cp_1", { name: "Acme Supplies" })).toBe(`${resources.counterparty.singular} cp_1 · Acme Supplies`);
    expect(detailTitle(resources.card, "card_1", { cardholder_name: "[masked]" })).toBe(`${resources.card.singular} card_1`);
    expect(detailTitle(resources.counterparty, "cp_1", { name: "" })).toBe(`${resources.counterparty.singular} cp_1`);
    expect(detailTitle(resources.counterparty, "cp_1", { name: null })).toBe(`${resources.counterparty.singular} cp_1`);
    expect(detailTitle(resources.ach, "ach_1")).toBe("ACH transfer ach_1");
  });

  it("shortens a long headline", () => {
    const title = detailTitle(resources.counterparty, "cp_1", { name: "x".repeat(100) });
    expect(title.endsWith("…")).toBe(true);
    expect(title.length).toBeLessThan(100);
  });
});
