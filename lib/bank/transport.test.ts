import type { ServerResponse } from "node:http";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { BankInvalidResponseError, BankRejectedError, BankServerError, BankTimeoutError, BankUnreachableError } from "./errors";
import { answerJson, dropConnection, startLocalServer, type LocalServer, type ReceivedRequest } from "@/tests/support/local-server";
import { backoffMs, sendBankRequest, type BankRequest, type HttpMethod, type TransportOptions } from "./transport";

const options: TransportOptions = { timeoutMs: 300, retries: 2, retryBaseMs: 1, retryMaxMs: 5 };
const secret = "s3cret-value";
let server: LocalServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(respond: (request: ReceivedRequest, response: ServerResponse, index: number) => void) {
  server = await startLocalServer(respond);
  return { baseUrl: server.url, auth: { type: "basic" as const, keyId: "key_demo", secret } };
}

const read: BankRequest = { operation: "listAch", method: "GET", path: "/ach?page_size=2" };
const write = (method: Exclude<HttpMethod, "GET">): BankRequest => ({
  operation: "writeSomething",
  method,
  path: "/network_transfer/nt_1",
  body: method === "DELETE" ? undefined : { userdata: { note: "x" } },
});
const writeMethods = ["POST", "PATCH", "DELETE"] as const;

// Faults that a read retries: each is answered to every request the server receives.
const retryableFaults: Array<[string, (response: ServerResponse) => void, new (...args: never[]) => Error]> = [
  ["drops the connection", dropConnection, BankUnreachableError],
  ["stalls without answering", () => {}, BankTimeoutError],
  ["answers 502", (response) => answerJson(response, 502, { error: "bad gateway" }), BankServerError],
  ["answers 503", (response) => answerJson(response, 503, { error: "unavailable" }), BankServerError],
  ["answers 504", (response) => answerJson(response, 504, { error: "gateway timeout" }), BankServerError],
  ["answers 429", (response) => answerJson(response, 429, { error: "slow down" }, { "retry-after": "0" }), BankRejectedError],
];

describe("sendBankRequest", () => {
  it("sends the API key as HTTP Basic and returns the parsed JSON answer", async () => {
    const target = await serve((_request, response) => answerJson(response, 200, { data: [] }));
    const answer = await sendBankRequest(target, read, options);
    expect(answer).toEqual({ status: 200, body: { data: [] }, attempts: 1 });
    expect(server!.received[0]!.headers.authorization).toBe(`Basic ${Buffer.from(`key_demo:${secret}`).toString("base64")}`);
    expect(server!.received[0]!.url).toBe("/ach?page_size=2");
  });

  it("sends a bearer token as Authorization: Bearer", async () => {
    server = await startLocalServer((_request, response) => answerJson(response, 200, {}));
    await sendBankRequest({ baseUrl: server.url, auth: { type: "bearer", token: "jwt.token.here" } }, read, options);
    expect(server.received[0]!.headers.authorization).toBe("Bearer jwt.token.here");
  });

  it("sends a write's body as JSON and accepts an empty 202", async () => {
    const target = await serve((_request, response) => {
      response.writeHead(202);
      response.end();
    });
    const answer = await sendBankRequest(target, write("POST"), options);
    expect(answer).toEqual({ status: 202, body: undefined, attempts: 1 });
    expect(server!.received[0]!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(server!.received[0]!.body)).toEqual({ userdata: { note: "x" } });
  });

  describe.each(retryableFaults)("when the bank %s", (_name, fault, errorType) => {
    // Only a stall needs the short timeout; an answer gets time to arrive on a loaded machine (a 503 once took 300 ms).
    const faultOptions = errorType === BankTimeoutError ? options : { ...options, timeoutMs: 10_000 };

    it("retries a read, then fails with a typed error after every attempt", async () => {
      const target = await serve((_request, response) => fault(response));
      const error = await sendBankRequest(target, read, faultOptions).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(errorType);
      expect(error).toMatchObject({ operation: "listAch", attempts: 3 });
      expect(server!.received).toHaveLength(3);
    });

    it.each(writeMethods)("never retries a %s", async (method) => {
      const target = await serve((_request, response) => fault(response));
      const error = await sendBankRequest(target, write(method), faultOptions).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(errorType);
      expect(error).toMatchObject({ attempts: 1 });
      expect(server!.received).toHaveLength(1);
    });
  });

  it("returns the answer of a read that succeeds after a transient 503", async () => {
    const target = await serve((_request, response, index) =>
      index === 0 ? answerJson(response, 503, { error: "busy" }) : answerJson(response, 200, { data: [{ id: "ach_1" }] }),
    );
    const answer = await sendBankRequest(target, read, options);
    expect(answer.body).toEqual({ data: [{ id: "ach_1" }] });
    expect(server!.received).toHaveLength(2);
  });

  it("times out a read whose body stalls after the headers were sent", async () => {
    const target = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write('{"data": [');
    });
    await expect(sendBankRequest(target, read, { ...options, retries: 0 })).rejects.toBeInstanceOf(BankTimeoutError);
  });

  it("reports a connection dropped in the middle of the body as unreachable, not as a timeout", async () => {
    const target = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      response.write('{"data": [');
      setTimeout(() => response.socket?.destroy(), 20);
    });
    const error = await sendBankRequest(target, read, { ...options, retries: 0, timeoutMs: 60_000 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BankUnreachableError);
  });

  it("fails a 500 at once with the bank's message: a server error is not a transient fault", async () => {
    const target = await serve((_request, response) => answerJson(response, 500, { error: "database on fire" }));
    const error = await sendBankRequest(target, read, options).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BankServerError);
    expect(error).toMatchObject({ status: 500, bankMessage: "database on fire", attempts: 1 });
  });

  it("reports a 4xx with the bank's own message and does not retry it", async () => {
    const target = await serve((_request, response) => answerJson(response, 404, { error: "No network transfer nt_404" }));
    const error = await sendBankRequest(target, read, options).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BankRejectedError);
    expect(error).toMatchObject({ status: 404, bankMessage: "No network transfer nt_404" });
    expect(server!.received).toHaveLength(1);
  });

  it("reports malformed JSON in a 200 as an invalid response, without retrying", async () => {
    const target = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end('{"data": [');
    });
    const error = await sendBankRequest(target, read, options).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BankInvalidResponseError);
    expect((error as Error).message).toContain("not valid JSON");
    expect(server!.received).toHaveLength(1);
  });

  it("reports a refused connection as unreachable", async () => {
    const target = await serve(() => {});
    await server!.close();
    server = undefined;
    const error = await sendBankRequest(target, read, options).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BankUnreachableError);
    expect((error as Error).message).toContain("ECONNREFUSED");
  });

  it("reports a token no HTTP header can carry as a failed call, not as a crash, and sends nothing", async () => {
    const target = await serve((_request, response) => answerJson(response, 200, {}));
    const broken = { ...target, auth: { type: "bearer" as const, token: "line one\nline two" } };
    const error = await sendBankRequest(broken, read, { ...options, retries: 0 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BankUnreachableError);
    expect(server!.received).toHaveLength(0);
  });

  it("never puts the secret in an error message", async () => {
    const target = await serve((_request, response) => answerJson(response, 401, { error: "bad credentials" }));
    const error = await sendBankRequest(target, read, options).catch((caught: unknown) => caught);
    expect(String((error as Error).message)).not.toContain(secret);
  });

  it("refuses to send credentials to another origin", async () => {
    const target = await serve((_request, response) => answerJson(response, 200, {}));
    const error = await sendBankRequest(target, { ...read, path: "http://evil.example/ach" }, options).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BankInvalidResponseError);
    expect(server!.received).toHaveLength(0);
  });
});

describe("sendBankRequest bounds what a base URL can do", () => {
  it("abandons a chunked answer past the byte cap: a 502-class invalid response, and the server stops being read", async () => {
    let written = 0;
    const target = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (written < 64 * 1024 * 1024 && !response.destroyed) {
          written += chunk.length;
          if (!response.write(chunk)) return void response.once("drain", pump);
        }
        response.end();
      };
      pump();
    });
    const error = await sendBankRequest(target, read, { ...options, timeoutMs: 10_000, maxAnswerBytes: 256 * 1024 }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(BankInvalidResponseError);
    expect((error as BankInvalidResponseError).problems).toEqual(["the answer is larger than 262144 bytes; it was not read"]);
    expect(server!.received).toHaveLength(1);
    expect(written).toBeLessThan(16 * 1024 * 1024);
  });

  it("refuses an answer whose declared length is past the cap without reading it", async () => {
    const target = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": String(600 * 1024 * 1024) });
      response.write("[");
    });
    const error = await sendBankRequest(target, read, { ...options, timeoutMs: 10_000 }).catch((caught: unknown) => caught);
    expect((error as BankInvalidResponseError).problems).toEqual(["the answer is larger than 16 MB; it was not read"]);
  });

  it("with requireHttps, sends nothing to an http base URL", async () => {
    const target = await serve((_request, response) => answerJson(response, 200, {}));
    const error = await sendBankRequest(target, read, { ...options, requireHttps: true }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BankUnreachableError);
    expect((error as Error).message).toContain("must be reached over https");
    expect(server!.received).toHaveLength(0);
  });

  it("keeps a reply outside the contract's error shape apart from the message every role sees", async () => {
    const target = await serve((_request, response) => {
      response.writeHead(403, { "content-type": "text/html" });
      response.end("<h1>internal admin panel on 10.0.0.7</h1>");
    });
    const error = await sendBankRequest(target, read, options).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 403, bankMessage: "HTTP 403 Forbidden", uncontracted: "<h1>internal admin panel on 10.0.0.7</h1>" });
    expect((error as Error).message).not.toContain("10.0.0.7");
  });
});

describe("backoffMs", () => {
  it("waits a random share of an exponentially growing, capped interval", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 1, max: 1_000 }), fc.integer({ min: 1, max: 60_000 }), (retry, base, max) => {
        const delay = backoffMs(retry, { ...options, retryBaseMs: base, retryMaxMs: max }, null);
        return delay >= 0 && delay <= Math.min(max, base * 2 ** retry);
      }),
    );
  });

  it("spreads the waits of many clients instead of synchronising them", () => {
    const delays = new Set(Array.from({ length: 50 }, () => backoffMs(3, { ...options, retryBaseMs: 100, retryMaxMs: 10_000 }, null)));
    expect(delays.size).toBeGreaterThan(40);
  });

  it("follows the bank's Retry-After in seconds, never beyond the cap", () => {
    expect(backoffMs(0, { ...options, retryMaxMs: 5_000 }, "2")).toBe(2_000);
    expect(backoffMs(0, { ...options, retryMaxMs: 5_000 }, "120")).toBe(5_000);
  });
});
