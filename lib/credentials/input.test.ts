import { describe, expect, it } from "vitest";
import { credentialsInput } from "./input";

describe("the credentials form input", () => {
  it("builds an API key connection and trims the base URL's trailing slash", () => {
    expect(
      credentialsInput.parse({ environment: "production", baseUrl: "https://api.bank.example/", authType: "basic", keyId: "k1", secret: "s" }),
    ).toEqual({
      environment: "production",
      baseUrl: "https://api.bank.example",
      auth: { type: "basic", keyId: "k1", secret: "s" },
    });
  });

  it("builds a bearer token connection", () => {
    expect(credentialsInput.parse({ environment: "sandbox", baseUrl: "http://127.0.0.1:4010", authType: "bearer", token: "t" }).auth).toEqual({
      type: "bearer",
      token: "t",
    });
  });

  it("names the field that is wrong or missing", () => {
    const messages = (input: Record<string, string>) => credentialsInput.safeParse(input).error?.issues.map((issue) => issue.message);
    expect(messages({ environment: "staging", baseUrl: "https://x.example", authType: "bearer", token: "t" })).toEqual([
      "environment: expected sandbox or production",
    ]);
    expect(messages({ environment: "sandbox", baseUrl: "ftp://x.example", authType: "bearer", token: "t" })).toEqual([
      "baseUrl: expected an http or https URL",
    ]);
    expect(messages({ environment: "sandbox", baseUrl: "https://x.example", authType: "basic", keyId: "k" })).toEqual([
      "secret: required for an API key",
    ]);
    expect(messages({ environment: "sandbox", baseUrl: "https://x.example", authType: "bearer" })).toEqual(["token: required for a bearer token"]);
  });
});
