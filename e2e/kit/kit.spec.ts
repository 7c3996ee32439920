import { readFileSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, SandboxError, test } from "./sandbox";

// The kit itself: what each fixture promises, against the sandbox bank it started (or SANDBOX_URL's).

const here = path.dirname(fileURLToPath(import.meta.url));

test("a reset gives the same ids and times every time", async ({ sandbox }) => {
  const seeded = async () => {
    const [ach, counterparties] = [await sandbox.list("ach", { page_size: 1000 }), await sandbox.list("counterparty", { page_size: 1000 })];
    return [...ach.data, ...counterparties.data].map(({ id, created_at }) => ({ id, created_at }));
  };
  await sandbox.reset("demo");
  const first = await seeded();
  await sandbox.create("counterparty", { name: "Gone after the reset" });
  await sandbox.reset("demo");

  expect(first).toHaveLength(350 + 60);
  expect(await seeded()).toEqual(first);
});

test("a refused call throws an error naming the call, the status and the bank's message", async ({ sandbox }) => {
  const refused = await sandbox.create("ach", { amount: "12.5" }).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(SandboxError);
  expect((refused as SandboxError).status).toBe(400);
  expect((refused as SandboxError).message).toBe(
    "sandbox bank: POST /sandbox/ach answered 400: amount: expected an amount with two decimals such as 12.50",
  );
  await expect(sandbox.get("/ach/ach_000000000000000000000000")).rejects.toThrow(
    "sandbox bank: GET /ach/ach_000000000000000000000000 answered 404: No ach with id ach_000000000000000000000000",
  );
});

test("a transition the state does not allow is a 409 listing the valid targets", async ({ sandbox }) => {
  const ach = await sandbox.create("ach");
  await sandbox.transition("ach", ach.id, { to: "processing" });

  const refused = await sandbox.transition("ach", ach.id, { to: "canceled" }).catch((error: unknown) => error);

  expect(refused).toBeInstanceOf(SandboxError);
  expect((refused as SandboxError).status).toBe(409);
  expect((refused as SandboxError).valid).toEqual(["sent", "returned", "error"]);
  expect((refused as SandboxError).message).toContain("answered 409: ");
  expect((refused as SandboxError).message).toContain("valid: sent, returned, error");
});

test("clock, creates and lists are the bank's own answers", async ({ sandbox }) => {
  const now = await sandbox.clock.now();
  const card = await sandbox.create("card", { cardholder_name: "Kit Tester", status: "locked" });
  expect(card).toMatchObject({ cardholder_name: "Kit Tester", status: "locked" });
  expect(await sandbox.get(`/card/${card.id}`)).toEqual(card);
  expect((await sandbox.list("card", { status: "locked", page_size: 1 })).data).toEqual([card]);
  expect(Math.abs(new Date(String(card.created_at)).getTime() - now.getTime())).toBeLessThan(5000);

  const advanced = await sandbox.clock.advance("PT2H");
  expect(advanced.getTime() - now.getTime()).toBeGreaterThanOrEqual(2 * 3600 * 1000);
  expect((await sandbox.clock.now()).getTime()).toBeGreaterThanOrEqual(advanced.getTime());
});

test.describe("faults", () => {
  test.describe.configure({ mode: "serial" });

  test("are added, listed and removed one by one", async ({ sandbox }) => {
    const fault = await sandbox.faults.add({ match: "GET /counterparty", status: 429, retry_after: 7 });
    const later = await sandbox.faults.add({ webhooks: "drop" });
    expect((await sandbox.faults.list()).map(({ id }) => id)).toEqual([fault.id, later.id]);
    await expect(sandbox.list("counterparty")).rejects.toThrow(`answered 429: Too many requests (sandbox fault ${fault.id})`);
    const response = await sandbox.api.get("/counterparty");
    expect(response.headers()["retry-after"]).toBe("7");

    await sandbox.faults.remove(fault.id);
    expect((await sandbox.list("counterparty", { page_size: 1 })).data).toHaveLength(1);
    expect(await sandbox.faults.list()).toEqual([later]);
    // Left in place on purpose: the next test finds it gone.
    await sandbox.faults.add({ match: "*", status: 500 });
  });

  test.describe("after a test that left some", () => {
    test.use({ sandboxState: "keep" });

    test("are all gone, even when the state is kept", async ({ sandbox }) => {
      expect(await sandbox.faults.list()).toEqual([]);
      await expect(sandbox.list("ach", { page_size: 1 })).resolves.toMatchObject({ data: [expect.anything()] });
    });
  });
});

test.describe("sandboxState", () => {
  test.describe.configure({ mode: "serial" });

  test.describe("empty", () => {
    test.use({ sandboxState: "empty" });
    test("starts the test with no objects", async ({ sandbox }) => {
      expect((await sandbox.list("ach")).data).toEqual([]);
      expect((await sandbox.list("counterparty")).data).toEqual([]);
      await sandbox.create("counterparty", { name: "Kept for the next test" });
    });
  });

  test.describe("keep", () => {
    test.use({ sandboxState: "keep" });
    test("starts the test with what the previous one left", async ({ sandbox }) => {
      expect((await sandbox.list("counterparty")).data).toEqual([expect.objectContaining({ name: "Kept for the next test" })]);
    });
  });

  test.describe("a number", () => {
    test.use({ sandboxState: 5 });
    test("starts the test with the demo data holding that many ACH transfers", async ({ sandbox }) => {
      expect((await sandbox.list("ach")).data).toHaveLength(5);
      expect((await sandbox.list("counterparty", { page_size: 1000 })).data).toHaveLength(60);
    });
  });

  test.describe("a snapshot file", () => {
    // Written by beforeAll below, in this worker; the path is fixed when the file loads.
    const file = path.join(tmpdir(), `sandbox-kit-snapshot-${process.pid}.json`);
    test.use({ sandboxState: { snapshot: file } });

    test.beforeAll(async ({ sandboxBank }) => {
      await sandboxBank.reset("empty");
      await sandboxBank.create("counterparty", { name: "From the snapshot" });
      await writeFile(file, JSON.stringify(await sandboxBank.snapshot()));
    });
    test.afterAll(() => rm(file, { force: true }));

    for (const round of [1, 2]) {
      test(`starts every test with the file's state (${round})`, async ({ sandbox }) => {
        expect((await sandbox.list("counterparty")).data).toEqual([expect.objectContaining({ name: "From the snapshot" })]);
        await sandbox.create("counterparty", { name: `Gone before the next test (${round})` });
      });
    }
  });
});

test("the receiver keeps what the bank sends and answers what it is told", async ({ sandbox, receiver }) => {
  await sandbox.request("POST", "/webhook", { url: receiver.url, event: "counterparty.create" });
  receiver.reply(500);
  const created = await sandbox.create("counterparty", { name: "Notified twice" });

  // Answered 500 the first time, so the bank tries again (after 0.5 to 1 s with the default retry base).
  const first = await receiver.waitFor((n) => n.id === created.id);
  receiver.reply(200);
  const again = await receiver.waitFor((n) => n.id === created.id && n !== first);

  expect(first).toMatchObject({ event: "counterparty.create", op: "create", url: `${sandbox.url}/counterparty/${created.id}` });
  expect(again).toMatchObject({ event: "counterparty.create", id: created.id });
  await expect(receiver.waitFor((n) => n.event === "never.sent", { timeoutMs: 100 })).rejects.toThrow(
    `no matching notification within 100 ms; received: counterparty.create ${created.id}, counterparty.create ${created.id}`,
  );
});

test("docs/testing-with-the-sandbox.md shows example.spec.ts whole, and every other TypeScript block as a kit file has it", () => {
  const doc = readFileSync(path.join(here, "..", "..", "docs", "testing-with-the-sandbox.md"), "utf8");
  const read = (file: string) => readFileSync(path.join(here, file), "utf8");
  const kitFiles = ["example.spec.ts", "recipes.spec.ts", "playwright.config.ts", "sandbox.ts"].map(read);
  expect(doc).toContain("```ts\n" + read("example.spec.ts") + "```");
  const blocks = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map(([, block]) => block!);
  expect(blocks.length).toBeGreaterThan(1);
  for (const block of blocks)
    expect(
      kitFiles.some((file) => file.includes(block)),
      `not in a kit file:\n${block}`,
    ).toBe(true);
});
