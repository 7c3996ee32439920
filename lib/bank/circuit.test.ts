import net from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ScratchDatabase } from "@/lib/db/scratch-database";
import { metrics } from "@/lib/metrics/registry";
import { startSandbox, type RunningSandbox } from "@/sandbox/server";
import { testDatabaseTargets } from "@/tests/support/databases";
import { demoKey, sandboxClient } from "@/tests/support/sandbox-client";
import { insertFixtures } from "@/tests/support/sandbox-fixtures";
import { BankCircuitOpenError, createBankCircuit, type BankCircuit } from "./circuit";
import { createBankClient, type BankClient } from "./client";
import { BankRejectedError, BankServerError, BankTimeoutError, BankUnreachableError } from "./errors";

/**
 * The circuit breaker on bank reads, per environment, against a real sandbox bank made to fail three ways: answering
 * 503 (its fault API), hung (a server that accepts connections and never answers: to the client, a process stopped
 * with SIGSTOP) and stopped (nothing listening). Three reads failing in a row open it; while open a read fails at once
 * and nothing reaches the bank; after the half-open wait one read probes, and its success closes the breaker.
 */
describe.each(testDatabaseTargets)("the bank's circuit breaker (sandbox on $name)", (target) => {
  const failures = 3;
  const halfOpenAfterMs = 400;
  let database: ScratchDatabase;
  let sandbox: RunningSandbox;
  let control: ReturnType<typeof sandboxClient>;
  let circuit: BankCircuit;
  let bank: BankClient;
  /** Requests that reached the bank (every attempt reports once, answered or not). */
  let attempts = 0;

  const clientFor = (baseUrl: string) =>
    createBankClient(
      { baseUrl, auth: { type: "basic", keyId: demoKey.id, secret: demoKey.secret } },
      { retries: 0, timeoutMs: 300, circuit, onReached: () => (attempts += 1) },
    );
  const gauge = async () => (await metrics.bankCircuitState.get()).values.find((value) => value.labels.environment === "sandbox")?.value;
  const failingRead = () =>
    bank.resources.list("ach", { page_size: 1 }).then(
      () => "answered",
      (error: unknown) => error,
    );
  const waitHalfOpen = () => new Promise((resolve) => setTimeout(resolve, halfOpenAfterMs + 50));

  beforeAll(async () => {
    database = await target.create();
    sandbox = await startSandbox({ databaseUrl: database.url, seed: "empty", demoKey });
    await insertFixtures(sandbox.context.db, 1);
    control = sandboxClient(sandbox.url, demoKey.id, demoKey.secret);
  }, 120_000);

  afterEach(async () => {
    await control("/sandbox/faults", { method: "DELETE" });
  });

  afterAll(async () => {
    await sandbox?.close();
    await database?.drop();
  }, 120_000);

  const fresh = (baseUrl = sandbox.url) => {
    circuit = createBankCircuit("sandbox", { failures, halfOpenAfterMs });
    bank = clientFor(baseUrl);
    attempts = 0;
  };

  it("opens after reads answered 503 in a row, then fails fast without calling the bank, and a probe closes it", async () => {
    fresh();
    // Counted at the sandbox: the fault's `times` counts down once per request it answers.
    await control("/sandbox/faults", { method: "POST", json: { match: "*", status: 503, times: 100 } });
    const before = Date.now();
    for (let read = 0; read < failures; read += 1) expect(await failingRead()).toBeInstanceOf(BankServerError);
    expect(circuit.snapshot()).toEqual({ state: "open", since: expect.any(String), failingSince: expect.any(String), lastAnsweredAt: null });
    expect(Date.parse(circuit.snapshot().failingSince!)).toBeGreaterThanOrEqual(before - 1);
    expect(await gauge()).toBe(2);

    const started = performance.now();
    const refused = await failingRead();
    expect(refused).toBeInstanceOf(BankCircuitOpenError);
    expect(refused).toMatchObject({ status: 503, method: "GET", failingSince: circuit.snapshot().failingSince });
    expect(performance.now() - started).toBeLessThan(200);
    const faults = (await control("/sandbox/faults")).body as { data: Array<{ times: number }> };
    expect(faults.data[0]!.times).toBe(100 - failures);
    expect(attempts).toBe(failures);

    // The bank answers again; the breaker stays open until its wait is over, then one read probes and closes it.
    await control("/sandbox/faults", { method: "DELETE" });
    expect(await failingRead()).toBeInstanceOf(BankCircuitOpenError);
    await waitHalfOpen();
    expect(await failingRead()).toBe("answered");
    expect(circuit.snapshot()).toMatchObject({ state: "closed", failingSince: null, lastAnsweredAt: expect.any(String) });
    expect(await gauge()).toBe(0);
  });

  it("opens again when the half-open probe fails, and refuses other reads while the probe is under way", async () => {
    fresh();
    await control("/sandbox/faults", { method: "POST", json: { match: "*", status: 503 } });
    for (let read = 0; read < failures; read += 1) await failingRead();
    await waitHalfOpen();
    // The probe gets no answer within the client's 300 ms, so a second read arrives while it is under way.
    await control("/sandbox/faults", { method: "DELETE" });
    await control("/sandbox/faults", { method: "POST", json: { match: "*", latency_ms: 1_000 } });
    const probe = failingRead();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(circuit.snapshot().state).toBe("half_open");
    expect(await gauge()).toBe(1);
    expect(await failingRead()).toBeInstanceOf(BankCircuitOpenError);
    expect(await probe).toBeInstanceOf(BankTimeoutError);
    expect(circuit.snapshot().state).toBe("open");
  });

  it("opens when the bank hangs (connections accepted, nothing answered), each read ending at the timeout", async () => {
    const sockets = new Set<net.Socket>();
    const hung = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => hung.listen(0, "127.0.0.1", resolve));
    try {
      fresh(`http://127.0.0.1:${(hung.address() as net.AddressInfo).port}`);
      for (let read = 0; read < failures; read += 1) expect(await failingRead()).toBeInstanceOf(BankTimeoutError);
      const connections = sockets.size;
      expect(connections).toBeGreaterThan(0);
      const started = performance.now();
      expect(await failingRead()).toBeInstanceOf(BankCircuitOpenError);
      expect(performance.now() - started).toBeLessThan(200);
      expect(attempts).toBe(failures);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => hung.close(resolve));
    }
  });

  it("opens when the bank is stopped (nothing listening)", async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    fresh(`http://127.0.0.1:${port}`);
    for (let read = 0; read < failures; read += 1) expect(await failingRead()).toBeInstanceOf(BankUnreachableError);
    expect(await failingRead()).toBeInstanceOf(BankCircuitOpenError);
    expect(attempts).toBe(failures);
  });

  it("counts a 4xx as the bank answering: it never opens the breaker and ends a run of failures", async () => {
    fresh();
    await control("/sandbox/faults", { method: "POST", json: { match: "*", status: 503, times: failures - 1 } });
    for (let read = 0; read < failures - 1; read += 1) expect(await failingRead()).toBeInstanceOf(BankServerError);
    const missing = await bank.resources.get("ach", "ach_does_not_exist").catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(BankRejectedError);
    expect(circuit.snapshot()).toMatchObject({ state: "closed", failingSince: null, lastAnsweredAt: expect.any(String) });
    for (let read = 0; read < 2 * failures; read += 1) await bank.resources.get("ach", "ach_does_not_exist").catch(() => undefined);
    expect(circuit.snapshot().state).toBe("closed");
  });

  it("refuses a change while open (nothing sent) and never counts a change's failure", async () => {
    fresh();
    const webhook = { url: "https://example.test/hook", event: "ach.update" };
    await control("/sandbox/faults", { method: "POST", json: { match: "*", status: 503 } });
    for (let change = 0; change < failures * 2; change += 1) {
      expect(await bank.call("create_webhook", { body: webhook }).catch((error: unknown) => error)).toBeInstanceOf(BankServerError);
    }
    expect(attempts).toBe(failures * 2);
    expect(circuit.snapshot().state).toBe("closed");
    for (let read = 0; read < failures; read += 1) await failingRead();
    const sent = attempts;
    const refused = await bank.call("create_webhook", { body: webhook }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BankCircuitOpenError);
    expect(refused).toMatchObject({ method: "POST" });
    expect(attempts).toBe(sent);
  });
});
