import { beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "@/tests/support/databases";
import { sandboxOnDatabase } from "@/tests/support/sandbox-bank";
import { insertFixtures } from "@/tests/support/sandbox-fixtures";

/** userdata nested `depth` arrays deep: 60 KB at 30,000, which overflowed the stack in a zod refine (a 500). */
const nested = (depth: number) => `{"userdata":{"a":${"[".repeat(depth)}${"]".repeat(depth)}}}`;

describe.each(testDatabaseTargets)("input PostgreSQL cannot store, or too deep to check, on $name", (target) => {
  const fixture = sandboxOnDatabase(target, { seed: "empty" });
  const { request } = fixture;
  let transferId: string;

  beforeAll(async () => {
    await insertFixtures(fixture.sandbox.context.db, 1);
    transferId = ((await request("/network_transfer?page_size=1")).body as { data: { id: string }[] }).data[0]!.id;
  }, 120_000);

  it.each([
    "/ach/%00",
    "/ach?account_id=%00",
    "/ach?page_cursor=%00",
    "/webhook/%00/deliveries",
    "/network_transfer?from_account_id=a%00b",
    "/apply/person_application?person_id=%00",
    "/card/%ED%A0%80", // a lone surrogate, percent-encoded as CESU-8
    "/ach?trace_suffix=0000001x",
  ])("GET %s is a 400 naming the problem (was a 500)", async (path) => {
    const answer = await request(path);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.body).toEqual({ error: expect.any(String) });
  });

  it.each([
    ["userdata with a NUL character", '{"userdata":{"a":"\\u0000"}}', "NUL"],
    ["userdata with a NUL in a key", '{"userdata":{"a\\u0000":1}}', "NUL"],
    ["userdata with a lone surrogate", '{"userdata":{"a":"\\udc00"}}', "surrogate"],
    ["userdata nested 30,000 arrays deep (60 KB)", nested(30_000), "nested deeper than 32"],
    ["userdata nested 33 deep", nested(32), "nested deeper than 32"],
  ])("PATCH /network_transfer/{id} with %s is a 400 (was a 500)", async (_case, body, message) => {
    const answer = await request(`/network_transfer/${transferId}`, { method: "PATCH", headers: { "content-type": "application/json" }, body });
    expect(answer).toMatchObject({ status: 400, body: { error: expect.stringContaining(message) } });
  });

  it("accepts userdata nested 31 deep, the most a 32-level body allows", async () => {
    const answer = await request(`/network_transfer/${transferId}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: nested(30),
    });
    expect(answer.status).toBe(200);
  });

  it("POST /webhook with a URL containing NUL is a 400 (was a 500)", async () => {
    const answer = await request("/webhook", { method: "POST", json: { url: "http://127.0.0.1:9/a\u0000b", event: "ach.update" } });
    expect(answer).toMatchObject({ status: 400, body: { error: expect.stringContaining("NUL") } });
  });
});
