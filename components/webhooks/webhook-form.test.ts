import { describe, expect, it } from "vitest";
import { webhookEdit, webhookUrlProblem } from "./webhook-form";

const current = { url: "https://hooks.example/a", event: "ach.update", basic_user: "alice" };
const unchanged = { url: current.url, event: current.event, basicUser: "alice", secret: "keep" as const, basicSecret: "" };

describe("the webhook edit's PATCH body", () => {
  it("is empty when nothing changed, so nothing is sent", () => {
    expect(webhookEdit(current, unchanged)).toEqual({});
  });

  it("carries exactly the fields that changed", () => {
    expect(webhookEdit(current, { ...unchanged, url: "https://hooks.example/b" })).toEqual({ url: "https://hooks.example/b" });
    expect(webhookEdit(current, { ...unchanged, event: "card.create" })).toEqual({ event: "card.create" });
    expect(webhookEdit(current, { ...unchanged, basicUser: "bob" })).toEqual({ basic_user: "bob" });
  });

  it("removes the user when emptied, and sends the secret only when it is set or removed", () => {
    expect(webhookEdit(current, { ...unchanged, basicUser: "" })).toEqual({ basic_user: null });
    expect(webhookEdit({ ...current, basic_user: null }, { ...unchanged, basicUser: "" })).toEqual({});
    expect(webhookEdit(current, { ...unchanged, basicSecret: "typed but kept" })).toEqual({});
    expect(webhookEdit(current, { ...unchanged, secret: "set", basicSecret: "s3cret" })).toEqual({ basic_secret: "s3cret" });
    expect(webhookEdit(current, { ...unchanged, secret: "remove", basicSecret: "ignored" })).toEqual({ basic_secret: null });
  });
});

describe("the webhook url check before sending", () => {
  it("accepts absolute http and https urls and names what is wrong otherwise", () => {
    expect(webhookUrlProblem("https://hooks.example/a")).toBeNull();
    expect(webhookUrlProblem("http://127.0.0.1:9/x")).toBeNull();
    expect(webhookUrlProblem("ftp://hooks.example/a")).toBe("The URL must start with http:// or https://.");
    expect(webhookUrlProblem("hooks.example/a")).toBe("Enter an absolute URL, such as https://example.com/hooks/bank.");
  });
});
