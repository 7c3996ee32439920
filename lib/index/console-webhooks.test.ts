import { describe, expect, it } from "vitest";
import { isConsoleWebhook, receiverUsername, shownInList } from "./console-webhooks";

// Which webhooks are the console's own subscriptions: the one decision the proxy and the webhook page share.

describe("isConsoleWebhook", () => {
  const address = "http://127.0.0.1:3000";

  it.each([
    ["its receiver at its address", { url: "http://127.0.0.1:3000/api/bank-events/sandbox" }],
    ["the production receiver", { url: "http://127.0.0.1:3000/api/bank-events/production" }],
    ["a trailing slash", { url: "http://127.0.0.1:3000/api/bank-events/sandbox/" }],
    ["another loopback spelling", { url: "http://localhost:3000/api/bank-events/sandbox" }],
    ["the IPv6 loopback", { url: "http://[::1]:3000/api/bank-events/sandbox" }],
    ["a dot segment the URL parser resolves", { url: "http://127.0.0.1:3000/api/x/../bank-events/sandbox" }],
    ["the sandbox receiver's Basic user, anywhere", { url: "https://hooks.example/x", basic_user: "console-sandbox" }],
    ["the production receiver's Basic user", { url: "https://hooks.example/x", basic_user: receiverUsername("production") }],
  ])("is true for %s", (_name, webhook) => {
    expect(isConsoleWebhook(webhook, address)).toBe(true);
  });

  it.each([
    ["another host", { url: "https://hooks.example/api/bank-events/sandbox" }],
    ["another port of the same host", { url: "http://127.0.0.1:3001/api/bank-events/sandbox" }],
    ["another path at its address", { url: "http://127.0.0.1:3000/api/bank-events/staging" }],
    ["another scheme", { url: "https://127.0.0.1:3000/api/bank-events/sandbox" }],
    ["a Basic user that only resembles the console's", { url: "https://hooks.example/x", basic_user: "Console-Sandbox " }],
    ["a url that is not one", { url: "not a url" }],
    ["no url and no user", {}],
  ])("is false for %s", (_name, webhook) => {
    expect(isConsoleWebhook(webhook, address)).toBe(false);
  });

  it("knows the receiver below a path when the console is served there", () => {
    const below = "https://bank.example/console";
    expect(isConsoleWebhook({ url: "https://bank.example/console/api/bank-events/sandbox" }, below)).toBe(true);
    expect(isConsoleWebhook({ url: "https://bank.example/api/bank-events/sandbox" }, below)).toBe(false);
  });

  it("tells by the Basic user alone when the console's address is unknown", () => {
    expect(isConsoleWebhook({ url: "http://127.0.0.1:3000/api/bank-events/sandbox" }, null)).toBe(false);
    expect(isConsoleWebhook({ url: "https://hooks.example/x", basic_user: "console-sandbox" }, null)).toBe(true);
    expect(isConsoleWebhook(null, address)).toBe(false);
  });
});

describe("shownInList", () => {
  it("leaves the console's own subscriptions out of the webhooks list only, by their Basic user", () => {
    const own = { url: "https://hooks.example/x", basic_user: "console-production" };
    expect(shownInList("webhook", own)).toBe(false);
    expect(shownInList("webhook", { url: "https://hooks.example/x", basic_user: "customer" })).toBe(true);
    expect(shownInList("ach", own)).toBe(true);
  });
});
