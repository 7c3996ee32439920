import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { capturedLog } from "@/tests/support/captured-log";

const logModule = path.resolve(__dirname, "log.ts");

/** Runs `script` (which has `log`, the console's logger) in a child process and collects its stdout lines as they arrive. */
function runLogging(script: string) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", `import { log } from ${JSON.stringify(logModule)};\n${script}`],
    {
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, LOG_LEVEL: "info" },
    },
  );
  const lines: Record<string, unknown>[] = [];
  let pending = "";
  child.stdout.on("data", (chunk: Buffer) => {
    const parts = (pending + String(chunk)).split("\n");
    pending = parts.pop() ?? "";
    for (const part of parts) lines.push(JSON.parse(part) as Record<string, unknown>);
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { child, lines, exited };
}

describe("the console's logger", () => {
  it("redacts credentials at the top level and nested in logged objects", () => {
    const { log, lines } = capturedLog();
    log.info({
      authorization: "Basic a2V5OnNlY3JldA==",
      headers: { authorization: "Bearer eyJ.token", cookie: "authjs.session-token=abc" },
      connection: { baseUrl: "http://bank", auth: { type: "basic", keyId: "key_1", secret: "s3cret" } },
      form: { user: { password: "hunter2", email: "a@b.c" } },
      webhook: { basic_secret: "hook-secret" },
    });
    const [line] = lines();
    const text = JSON.stringify(line);
    for (const secret of ["a2V5OnNlY3JldA==", "eyJ.token", "authjs.session-token", "s3cret", "hunter2", "hook-secret"])
      expect(text).not.toContain(secret);
    expect(line).toMatchObject({
      connection: { baseUrl: "http://bank", auth: { keyId: "key_1", secret: "[redacted]" } },
      form: { user: { email: "a@b.c" } },
    });
  });

  it("redacts at any depth, in arrays, whatever the key's case, and inside a logged error's own fields", () => {
    const { log, lines } = capturedLog();
    const error = Object.assign(new Error("bank call failed"), { request: { headers: { Authorization: "Basic deep-secret" } } });
    log.error({ a: { b: { c: { d: { e: { password: "very-deep" } } } } }, attempts: [{ token: "in-an-array" }], err: error }, "failed");
    const [line] = lines();
    const text = JSON.stringify(line);
    for (const secret of ["very-deep", "in-an-array", "deep-secret"]) expect(text).not.toContain(secret);
    expect(line).toMatchObject({
      err: { message: "bank call failed", type: "Error", stack: expect.stringContaining("bank call failed") },
      msg: "failed",
    });
  });

  it("logs an object without secrets unchanged", () => {
    const { log, lines } = capturedLog();
    const fields = { method: "GET", path: "/api/bank/ach", status: 200, nested: { ids: ["ach_1", "ach_2"], at: "2026-11-23" } };
    log.info(fields, "api request");
    expect(lines()[0]).toMatchObject(fields);
  });

  it("writes one JSON object per line with an ISO time and the service name", () => {
    const { log, lines } = capturedLog();
    log.warn({ requestId: "r1" }, "something to look at");
    expect(lines()[0]).toMatchObject({
      level: 40,
      service: "console",
      requestId: "r1",
      msg: "something to look at",
      time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
  });

  describe("on standard output, written in batches", () => {
    it("writes a lone line while the process keeps running, not only once 4 KB are pending or at exit", async () => {
      const { child, lines, exited } = runLogging(`log.info({ n: 1 }, "alone"); setInterval(() => {}, 1000);`);
      try {
        await expect.poll(() => lines.map((line) => line.msg), { timeout: 10_000, interval: 20 }).toEqual(["alone"]);
        expect(child.exitCode).toBeNull();
      } finally {
        child.kill();
        await exited;
      }
    });

    it("writes every pending line when the process exits at once", async () => {
      const { lines, exited } = runLogging(`for (let n = 0; n < 50; n++) log.info({ n }, "line"); process.exit(0);`);
      expect(await exited).toBe(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(lines.map((line) => line.n)).toEqual(Array.from({ length: 50 }, (_, n) => n));
    });
  });
});
