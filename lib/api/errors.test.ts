import { describe, expect, it } from "vitest";
import {
  BankInvalidRequestError,
  BankInvalidResponseError,
  BankRejectedError,
  BankServerError,
  BankTimeoutError,
  BankUnreachableError,
} from "@/lib/bank/errors";
import { asConsoleError, ConsoleError, consoleErrorForBank } from "./errors";

// What the console's caller sees for each way a bank call fails: status, code and a message without internals.

const call = { operation: "get_ach", method: "GET", path: "/ach/ach_1", attempts: 1 };

describe("consoleErrorForBank", () => {
  it.each([
    [
      "input the contract refuses",
      new BankInvalidRequestError(call, ["page_size: too big", "colour: unknown"]),
      400,
      "invalid_input",
      "Invalid request to the bank: page_size: too big; colour: unknown",
    ],
    [
      "an unreachable bank",
      new BankUnreachableError(call, "ECONNREFUSED"),
      502,
      "bank_unreachable",
      "The bank could not be reached. Try again in a moment; if it persists, check the environment's base URL in Settings.",
    ],
    ["a timeout", new BankTimeoutError(call, 2500), 504, "bank_timeout", "The bank did not answer within 2500 ms."],
    [
      "refused credentials (401)",
      new BankRejectedError(call, 401, "bad key"),
      502,
      "bank_credentials_refused",
      "The bank refused the console's credentials for this environment; an admin can check them in Settings.",
    ],
    [
      "refused credentials (403)",
      new BankRejectedError(call, 403, "no scope"),
      502,
      "bank_credentials_refused",
      "The bank refused the console's credentials for this environment; an admin can check them in Settings.",
    ],
    ["rate limiting", new BankRejectedError(call, 429, "slow down"), 429, "bank_rate_limited", "The bank is limiting requests: slow down"],
    ["an unknown object", new BankRejectedError(call, 404, "No ach with id ach_1"), 404, "not_found", "No ach with id ach_1"],
    ["a bad request", new BankRejectedError(call, 400, "amount is wrong"), 400, "bank_rejected", "amount is wrong"],
    ["a conflict", new BankRejectedError(call, 409, "already sent"), 409, "bank_rejected", "already sent"],
    ["a body too large", new BankRejectedError(call, 413, "too big"), 413, "bank_rejected", "too big"],
    ["an unprocessable request", new BankRejectedError(call, 422, "cannot"), 422, "bank_rejected", "cannot"],
    ["another 4xx", new BankRejectedError(call, 418, "teapot"), 502, "bank_rejected", "The bank refused the request (HTTP 418): teapot"],
    ["a 5xx", new BankServerError(call, 500, "boom"), 502, "bank_error", "The bank failed to handle the request (HTTP 500): boom"],
    ["an unavailable bank (503)", new BankServerError(call, 503, "down"), 503, "bank_unavailable", "The bank is unavailable (HTTP 503): down"],
    [
      "an unavailable bank saying when to come back",
      new BankServerError(call, 503, "down", undefined, 30),
      503,
      "bank_unavailable",
      "The bank is unavailable (HTTP 503; try again in 30 s): down",
    ],
    [
      "rate limiting saying when to come back",
      new BankRejectedError(call, 429, "slow down", undefined, 2),
      429,
      "bank_rate_limited",
      "The bank is limiting requests (try again in 2 s): slow down",
    ],
    [
      "an answer off the contract",
      new BankInvalidResponseError(call, ["data: expected array"]),
      502,
      "bank_invalid_response",
      "The bank's answer does not match the API contract: data: expected array",
    ],
  ])("answers %s with its status, code and message", (_case, error, status, code, message) => {
    const mapped = consoleErrorForBank(error);
    expect({ status: mapped.status, code: mapped.code, message: mapped.message }).toEqual({ status, code, message });
  });
});

describe("a bank reply outside the contract's error shape", () => {
  const rejected = new BankRejectedError(call, 418, "HTTP 418 I'm a teapot", "<html>service on 10.0.0.7:8080</html>");
  const failed = new BankServerError(call, 500, "HTTP 500 Internal Server Error", "stack trace at /srv/app.js");

  it("is not shown to a role that cannot manage credentials", () => {
    expect(consoleErrorForBank(rejected).message).toBe("The bank refused the request (HTTP 418): HTTP 418 I'm a teapot");
    expect(asConsoleError(failed, { showUncontracted: false })?.message).toBe(
      "The bank failed to handle the request (HTTP 500): HTTP 500 Internal Server Error",
    );
  });

  it("is shown to admins, who can fix the base URL", () => {
    expect(asConsoleError(rejected, { showUncontracted: true })?.message).toBe(
      "The bank refused the request (HTTP 418): HTTP 418 I'm a teapot The bank's reply (outside the contract): <html>service on 10.0.0.7:8080</html>",
    );
    expect(asConsoleError(failed, { showUncontracted: true })?.message).toBe(
      "The bank failed to handle the request (HTTP 500): HTTP 500 Internal Server Error The bank's reply (outside the contract): stack trace at /srv/app.js",
    );
  });
});

describe("asConsoleError", () => {
  it("keeps a ConsoleError, maps a bank error, and leaves anything else to the 500 path", () => {
    const own = new ConsoleError(409, "conflict", "Already done.");
    expect(asConsoleError(own)).toBe(own);
    expect(asConsoleError(new BankServerError(call, 500, "boom"))).toMatchObject({ status: 502, code: "bank_error" });
    expect(asConsoleError(new Error("postgres://secret"))).toBeNull();
    expect(asConsoleError("a string")).toBeNull();
  });

  it("answers in the console's one error shape, with extra headers when given", async () => {
    const response = new ConsoleError(429, "bank_rate_limited", "Wait.").toResponse({ "retry-after": "3" });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("3");
    expect(await response.json()).toEqual({ error: { code: "bank_rate_limited", message: "Wait." } });
  });
});
