import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "@/sandbox/server";
import { testDatabaseTargets } from "@/tests/support/databases";
import { sandboxOnDatabase } from "@/tests/support/sandbox-bank";
import { demoKey, sandboxClient } from "@/tests/support/sandbox-client";

/**
 * The control API answers a wrong method as the rest of the bank does (sandbox/routes/writes-and-errors.test.ts):
 * 405 with an `Allow` header naming the methods the path answers and the contract's error body; an unknown path
 * under /sandbox stays a 404, and with the control API off every /sandbox path is a 404, as at a production bank.
 */
describe.each(testDatabaseTargets)("a wrong method on a /sandbox path on $name", (target) => {
  const fixture = sandboxOnDatabase(target, { seed: "empty" });
  const { request } = fixture;
  let withoutControl: RunningSandbox;

  beforeAll(async () => {
    withoutControl = await startSandbox({ databaseUrl: fixture.databaseUrl, seed: "empty", demoKey, settings: { control: "off" } });
  }, 120_000);
  afterAll(async () => {
    await withoutControl?.close();
  });

  it.each([
    ["GET", "/sandbox/reset", "POST"],
    ["DELETE", "/sandbox/clock", "GET"],
    ["POST", "/sandbox/clock", "GET"],
    ["GET", "/sandbox/clock/advance", "POST"],
    ["POST", "/sandbox/snapshot", "GET, PUT"],
    ["PUT", "/sandbox/faults", "POST, GET, DELETE"],
    ["GET", "/sandbox/faults/flt_x", "DELETE"],
    ["GET", "/sandbox/ach", "POST"],
    ["GET", "/sandbox/apply/person_application", "POST"],
    ["GET", "/sandbox/ach/ach_x/transition", "POST"],
    ["DELETE", "/sandbox/webhook/webhook_x/transition", "POST"],
  ])("%s %s is a 405 allowing %s, with the contract's error body", async (method, path, allow) => {
    const answer = await request(path, { method });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe(allow);
    expect(answer.body).toEqual({ error: `Method ${method} is not allowed on ${path}; allowed: ${allow}` });
  });

  it("answers 404 for a path under /sandbox that does not exist, whatever the method", async () => {
    expect(await request("/sandbox/nothing")).toMatchObject({ status: 404, body: { error: "No such path: /sandbox/nothing" } });
    const post = await request("/sandbox/nothing", { method: "POST", json: {} });
    expect(post.status).toBe(404);
    expect((post.body as { error: string }).error).toContain("POST /sandbox/{resource} creates ach");
  });

  it("answers 401 before telling anything about the path to a caller without credentials", async () => {
    expect((await fetch(`${fixture.sandbox.url}/sandbox/reset`)).status).toBe(401);
  });

  it("with the control API off, every /sandbox path is a 404 whatever the method, as at a production bank", async () => {
    const off = sandboxClient(withoutControl.url, demoKey.id, demoKey.secret);
    expect(await off("/sandbox/reset")).toMatchObject({ status: 404, body: { error: "No such path: /sandbox/reset" } });
    expect((await off("/sandbox/reset", { method: "POST", json: { seed: "empty" } })).status).toBe(404);
    expect((await off("/sandbox/clock", { method: "DELETE" })).status).toBe(404);
  });
});
