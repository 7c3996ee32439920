import net from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { audited, recordAuditEvent } from "@/lib/audit/trail";
import type { StaffUser } from "@/lib/auth/staff-user";
import { createBankCircuit, type BankCircuit } from "@/lib/bank/circuit";
import { createBankClient, type BankClient } from "@/lib/bank/client";
import { listedResources, type ListedResource } from "@/lib/contract/operations";
import type { ScratchDatabase } from "@/lib/db/scratch-database";
import { recordObservations } from "@/lib/index/store";
import { createLogger } from "@/lib/log";
import type { Role } from "@/lib/permissions";
import { startSandbox, type RunningSandbox } from "@/sandbox/server";
import { testDatabaseTargets } from "@/tests/support/databases";
import { demoKey, sandboxClient } from "@/tests/support/sandbox-client";
import { insertFixtures } from "@/tests/support/sandbox-fixtures";
import { bankProxyResolver } from "./bank-proxy";
import { indexCopies, indexCopyField } from "./index-fallback";
import { createApiRoute } from "./route";

type Answer = {
  status: number;
  headers: Headers;
  body: Record<string, unknown> & { data?: Array<Record<string, unknown>>; error?: { code: string; message: string } };
};

/**
 * While the bank cannot answer, `/api/bank/...` list and detail reads (and server pages, which read through the same
 * route) answer the console's index copy, marked `console_index_copy`, through the same permission check and the same
 * masking as the bank's answer: a role sees no more from the index than from the bank. Changes are refused and never
 * sent later. Against a real sandbox bank answering 503 (its fault API), hung, and stopped.
 */
describe.each(testDatabaseTargets)("bank reads while the bank is down (both on $name)", (target) => {
  const failures = 2;
  /**
   * Longer than any test runs on a loaded machine: an open breaker stays open until a test moves the breaker's clock
   * past the wait (`afterHalfOpenWait`), never because the machine was slow between two calls.
   */
  const halfOpenAfterMs = 600_000;
  let database: ScratchDatabase;
  let sandbox: RunningSandbox;
  let control: ReturnType<typeof sandboxClient>;
  let circuit: BankCircuit;
  let bank: BankClient;
  let handler: ReturnType<ReturnType<typeof createApiRoute>>;
  let user: StaffUser;
  const staff = (role: Role): StaffUser => ({ id: `stf_${role}`, email: `${role}@demo.bank`, name: role, role, locked: false });

  /**
   * The bank's timeout: a ceiling for the sandbox's answers on a loaded machine (one counted as a failure would move
   * the breaker), and short for the hung bank, which never answers.
   */
  const clientFor = (baseUrl: string, timeoutMs = 30_000) =>
    createBankClient({ baseUrl, auth: { type: "basic", keyId: demoKey.id, secret: demoKey.secret } }, { retries: 0, timeoutMs, circuit });

  beforeAll(async () => {
    database = await target.create();
    sandbox = await startSandbox({ databaseUrl: database.url, seed: "empty", demoKey });
    await insertFixtures(sandbox.context.db, 3);
    control = sandboxClient(sandbox.url, demoKey.id, demoKey.secret);
    process.env.DATABASE_URL = database.url;
    process.env.CONSOLE_DEMO_USERS = "off";
    vi.resetModules(); // a fresh lib/db/console per database target
    const { consoleDb } = await import("@/lib/db/console");
    const { db } = await consoleDb();
    // The index as its backfill leaves it: every object of every list, as the bank answered it.
    for (const resource of Object.keys(listedResources) as ListedResource[]) {
      const page = (await control(`${listedResources[resource].path}?page_size=100`)).body as { data: Array<Record<string, unknown>> };
      await recordObservations(
        db,
        "sandbox",
        page.data.map((state) => ({ resource, id: String(state.id), state })),
        { source: "backfill" },
      );
    }
    handler = createApiRoute({ currentUser: async () => user, log: createLogger({ level: "silent" }) })(
      bankProxyResolver({
        activeEnvironment: async () => "sandbox",
        bankClient: async () => bank,
        audited: (entry, perform, options) => audited(db, entry, perform, options),
        recordAuditEvent: (entry) => recordAuditEvent(db, entry),
        indexCopies: indexCopies(async () => db),
      }),
    );
  }, 120_000);

  const reset = () => {
    circuit = createBankCircuit("sandbox", { failures, halfOpenAfterMs });
    bank = clientFor(sandbox.url);
    user = staff("admin");
  };

  afterEach(async () => {
    vi.useRealTimers();
    await control("/sandbox/faults", { method: "DELETE" });
  });

  afterAll(async () => {
    await sandbox?.close();
    const { consoleDb } = await import("@/lib/db/console");
    await (await consoleDb()).close();
    await database?.drop();
  }, 120_000);

  const consoleCall = async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const url = `http://console.test/api/bank${path}`;
    const headers: Record<string, string> = {
      ...(method === "GET" ? {} : { origin: "http://console.test" }),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    };
    const response = await handler(new Request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }), {
      params: Promise.resolve({ path: new URL(url).pathname.split("/").slice(3) }),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Answer["body"] };
  };
  const bankDown = async () => {
    await control("/sandbox/faults", { method: "POST", json: { match: "*", status: 503 } });
  };
  /** The breaker opened by reads failing in a row, as staff reading pages would open it. */
  const openBreaker = async () => {
    await bankDown();
    for (let read = 0; read < failures; read += 1) await consoleCall("GET", "/ach?page_size=1");
    expect(circuit.snapshot().state).toBe("open");
  };
  /**
   * `call` made as if the breaker's half-open wait had passed: cockatiel compares Date.now() with when the breaker
   * opened, so Date alone is moved past the wait (timers and I/O stay real), then put back.
   */
  const afterHalfOpenWait = async <T>(call: () => Promise<T>): Promise<T> => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + halfOpenAfterMs, shouldAdvanceTime: true });
    try {
      return await call();
    } finally {
      vi.useRealTimers();
    }
  };
  const withoutMark = ({ [indexCopyField]: mark, ...rest }: Record<string, unknown>) => (mark === undefined ? rest : rest);

  it("answers a webhook's delivery attempts and a reveal, which only the bank answers, 503 with Retry-After before and after the breaker opens", async () => {
    reset();
    const hook = (await control("/webhook", { method: "POST", json: { url: "https://hooks.example/outage", event: "ach.update" } })).body as {
      id: string;
    };
    const [transfer] = ((await control("/ach?page_size=1")).body as { data: Array<{ id: string }> }).data;
    const reads = {
      deliveries: () => consoleCall("GET", `/webhook/${hook.id}/deliveries?page_size=10`),
      reveal: () => consoleCall("POST", `/ach/${transfer!.id}/reveal`, { fields: "all", reason: "Customer called about a return" }),
    };
    const onlyFromTheBank = (since: string, what: string) =>
      new RegExp(`^The bank is not answering${since}; ${what}, never from the console's copy\\. Try again in \\d+ s\\.$`);
    const expectOnlyFromTheBank = (answer: Answer, since: string, what: string) => {
      expect([answer.status, answer.body]).toEqual([
        503,
        { error: { code: "bank_unavailable", message: expect.stringMatching(onlyFromTheBank(since, what)) } },
      ]);
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    };

    // The bank failing, the breaker still closed: each read's own failure, told as the export's is.
    await bankDown();
    expectOnlyFromTheBank(await reads.deliveries(), "", "this is read from the bank itself");
    expect(circuit.snapshot().state).toBe("closed");
    reset();
    expectOnlyFromTheBank(await reads.reveal(), "", "a reveal reads the bank's own object");
    expect(circuit.snapshot().state).toBe("closed");

    // The breaker open: the same, dated, and nothing asked of the bank.
    await openBreaker();
    expectOnlyFromTheBank(await reads.deliveries(), " since .+", "this is read from the bank itself");
    expectOnlyFromTheBank(await reads.reveal(), " since .+", "a reveal reads the bank's own object");
  });

  it("serves a list and a detail from the index, marked with when the bank stopped and how old the copy is", async () => {
    reset();
    const fromBank = await consoleCall("GET", "/ach?page_size=2");
    expect(fromBank.status).toBe(200);
    expect(fromBank.body[indexCopyField]).toBeUndefined();
    await bankDown();

    // The first failure already answers the copy; the breaker is not open yet.
    const list = await consoleCall("GET", "/ach?page_size=2");
    expect(list.status).toBe(200);
    expect(list.body[indexCopyField]).toEqual({ source: "index", bankSince: expect.any(String), asOf: expect.any(String), complete: false });
    expect(list.body.data).toEqual(fromBank.body.data);
    // The next page goes on through the index's copy (a cursor of its own); the bank's own cursor is not readable there.
    expect(list.body.page_next).toMatch(/^\/api\/bank\/ach\?page_size=2&page_cursor=ix\./);
    const next = await consoleCall("GET", String(list.body.page_next).slice("/api/bank".length));
    expect(next).toMatchObject({ status: 200, body: { data: [expect.anything()], [indexCopyField]: { source: "index" } } });

    const id = String(fromBank.body.data![0]!.id);
    const detail = await consoleCall("GET", `/ach/${id}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ id, [indexCopyField]: { source: "index", asOf: expect.any(String) } });
    expect(circuit.snapshot().state).toBe("open");
    const bankSince = circuit.snapshot().failingSince;
    expect((await consoleCall("GET", "/ach?page_size=2")).body[indexCopyField]).toMatchObject({ bankSince });
  });

  it("filters the copy with the bank's own filters, and answers the bank's failure for what the index does not hold", async () => {
    reset();
    const sent = await consoleCall("GET", "/ach?status=sent&page_size=100");
    await openBreaker();
    const filtered = await consoleCall("GET", "/ach?status=sent&page_size=100");
    expect(filtered.status).toBe(200);
    expect(filtered.body.data!.map((object) => object.id)).toEqual(sent.body.data!.map((object) => object.id));
    expect(await consoleCall("GET", "/ach/ach_not_in_the_index")).toMatchObject({ status: 503, body: { error: { code: "bank_unavailable" } } });
    // A bank cursor means nothing to the index: the failure stands rather than a first page shown as another.
    expect(await consoleCall("GET", "/ach?page_cursor=bank-cursor")).toMatchObject({ status: 503 });
  });

  it.each(["viewer", "compliance", "operations"] as const)(
    "shows a %s no more from the index than from the bank: a person application field by field, in the list and the detail",
    async (role) => {
      reset();
      user = staff(role);
      const path = listedResources.person_application.path;
      const listFromBank = await consoleCall("GET", `${path}?page_size=100`);
      const id = String(listFromBank.body.data![0]!.id);
      const detailFromBank = await consoleCall("GET", `${path}/${id}`);
      expect(detailFromBank.status).toBe(200);
      await openBreaker();
      const listFromIndex = await consoleCall("GET", `${path}?page_size=100`);
      const detailFromIndex = await consoleCall("GET", `${path}/${id}`);
      expect(listFromIndex.body[indexCopyField]).toBeDefined();
      expect(detailFromIndex.body[indexCopyField]).toBeDefined();
      expect(listFromIndex.body.data).toEqual(listFromBank.body.data);
      expect(withoutMark(detailFromIndex.body)).toEqual(detailFromBank.body);
      // The masked values are there, masked (not dropped): the same fields, the same values.
      expect(JSON.stringify(detailFromIndex.body)).toMatch(/\[masked\]|\*\*\*/);
    },
  );

  it("refuses a change while the bank is down, sends nothing then or later, and ends the banner once a read succeeds", async () => {
    reset();
    const transfer = (await consoleCall("GET", "/network_transfer?page_size=1")).body.data![0]!;
    const atBank = async () => (await control(`/network_transfer/${String(transfer.id)}`)).body as Record<string, unknown>;
    const before = await atBank();
    await openBreaker();
    await control("/sandbox/faults", { method: "DELETE" });
    const refused = await consoleCall("PATCH", `/network_transfer/${String(transfer.id)}`, { userdata: { note: "during the outage" } });
    expect([refused.status, refused.body]).toEqual([
      503,
      { error: { code: "bank_unavailable", message: "The bank is not answering; changes are paused. Nothing was sent or queued." } },
    ]);

    // Opening the editor (its unmasked read of the current userdata) is refused alike.
    const editor = await consoleCall("POST", `/network_transfer/${String(transfer.id)}/userdata`);
    expect([editor.status, editor.body]).toEqual([refused.status, refused.body]);

    // Still open (nothing has probed the bank), until its wait has passed: then one read probes, and closes it.
    expect(circuit.snapshot().state).toBe("open");
    const back = await afterHalfOpenWait(() => consoleCall("GET", "/network_transfer?page_size=1"));
    expect(back.status).toBe(200);
    expect(back.body[indexCopyField]).toBeUndefined();
    expect(circuit.snapshot().state).toBe("closed");
    // Nothing was kept to send: the bank's object is as it was, after the bank is back and a while later.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await atBank()).toEqual(before);
    // And the change, made again, goes through.
    expect((await consoleCall("PATCH", `/network_transfer/${String(transfer.id)}`, { userdata: { note: "after" } })).status).toBe(200);
  });

  it("refuses a change whose first read the bank does not answer, before the breaker opens: only that read reached the bank", async () => {
    reset();
    const transfer = (await consoleCall("GET", "/network_transfer?page_size=1")).body.data![0]!;
    const before = (await control(`/network_transfer/${String(transfer.id)}`)).body;
    await control("/sandbox/faults", { method: "POST", json: { match: "GET /network_transfer/*", status: 503, times: 10 } });
    const refused = await consoleCall("PATCH", `/network_transfer/${String(transfer.id)}`, { userdata: { note: "not sent" } });
    expect(refused).toMatchObject({
      status: 503,
      body: { error: { message: "The bank is not answering; changes are paused. Nothing was sent or queued." } },
    });
    // Counted at the sandbox: the fault answered one request (the read), and the object is unchanged.
    expect(((await control("/sandbox/faults")).body as { data: Array<{ times: number }> }).data[0]!.times).toBe(9);
    await control("/sandbox/faults", { method: "DELETE" });
    expect((await control(`/network_transfer/${String(transfer.id)}`)).body).toEqual(before);
  });

  it("serves the copy when the bank hangs and when it is stopped", async () => {
    reset();
    const sockets = new Set<net.Socket>();
    const hung = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => hung.listen(0, "127.0.0.1", resolve));
    const hungUrl = `http://127.0.0.1:${(hung.address() as net.AddressInfo).port}`;
    try {
      bank = clientFor(hungUrl, 300);
      const list = await consoleCall("GET", "/card?page_size=5");
      expect(list).toMatchObject({ status: 200, body: { [indexCopyField]: { source: "index" } } });
      expect(list.body.data!.length).toBeGreaterThan(0);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => hung.close(resolve));
    }
    // Nothing listens there now: the bank is stopped.
    const stopped = await consoleCall("GET", "/card?page_size=5");
    expect(stopped).toMatchObject({ status: 200, body: { [indexCopyField]: { source: "index" } } });
  });
});
