import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "./log";

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { log: createLogger({ level: "info", destination }), lines: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe("the console's logger", () => {
  it("redacts credentials at the top level and nested in logged objects", () => {
    const { log, lines } = capture();
    log.info({
      authorization: "Basic a2V5OnNlY3JldA==",
      headers: { authorization: "Bearer eyJ.token", cookie: "authjs.session-token=abc" },
      connection: { baseUrl: "http://bank", auth: { type: "basic", keyId: "key_1", secret: "s3cret" } },
      form: { user: { password: "hunter2", email: "a@b.c" } },
      webhook: { basic_secret: "hook-secret" },
    });
    const [line] = lines();
    const text = JSON.stringify(line);
    for (const secret of ["a2V5OnNlY3JldA==", "eyJ.token", "authjs.session-token", "s3cret", "hunter2", "hook-secret"]) expect(text).not.toContain(secret);
    expect(line).toMatchObject({ connection: { baseUrl: "http://bank", auth: { keyId: "key_1", secret: "[redacted]" } }, form: { user: { email: "a@b.c" } } });
  });

  it("redacts at any depth, in arrays, whatever the key's case, and inside a logged error's own fields", () => {
    const { log, lines } = capture();
    const error = Object.assign(new Error("bank call failed"), { request: { headers: { Authorization: "Basic deep-secret" } } });
    log.error({ a: { b: { c: { d: { e: { password: "very-deep" } } } } }, attempts: [{ token: "in-an-array" }], err: error }, "failed");
    const [line] = lines();
    const text = JSON.stringify(line);
    for (const secret of ["very-deep", "in-an-array", "deep-secret"]) expect(text).not.toContain(secret);
    expect(line).toMatchObject({ err: { message: "bank call failed", type: "Error", stack: expect.stringContaining("bank call failed") }, msg: "failed" });
  });

  it("logs an object without secrets unchanged", () => {
    const { log, lines } = capture();
    const fields = { method: "GET", path: "/api/bank/ach", status: 200, nested: { ids: ["ach_1", "ach_2"], at: "2026-11-23" } };
    log.info(fields, "api request");
    expect(lines()[0]).toMatchObject(fields);
  });

  it("writes one JSON object per line with an ISO time and the service name", () => {
    const { log, lines } = capture();
    log.warn({ requestId: "r1" }, "something to look at");
    expect(lines()[0]).toMatchObject({ level: 40, service: "console", requestId: "r1", msg: "something to look at", time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) });
  });
});
