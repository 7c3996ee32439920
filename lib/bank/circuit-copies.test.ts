import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startLocalServer, type LocalServer } from "@/tests/support/local-server";

/**
 * Next.js bundles instrumentation.ts (the index) and every route with its own copy of each module, while the breaker
 * of an environment is one per process. Two copies of the modules, loaded apart as two bundles would load them, share
 * one breaker: failures seen by one open it for the other, and each copy's refusal is an error of its own classes, so
 * its route answers 503 bank_unavailable (an error of another copy's classes would be a 500).
 */

let bank: LocalServer;
beforeAll(async () => {
  bank = await startLocalServer((_request, response) => response.writeHead(503).end('{"error":"maintenance"}'));
});
afterAll(() => bank.close());

/** A fresh copy of the breaker, the bank client and the error mapping, as one bundle holds them. */
async function bundle() {
  vi.resetModules();
  const [{ bankCircuit }, { createBankClient }, { asConsoleError }, { BankCircuitOpenError }] = await Promise.all([
    import("./circuit"),
    import("./client"),
    import("@/lib/api/errors"),
    import("./circuit"),
  ]);
  const circuit = bankCircuit("sandbox", { failures: 2, halfOpenAfterMs: 60_000 });
  const client = createBankClient({ baseUrl: bank.url, auth: { type: "basic", keyId: "k", secret: "secret-for-test" } }, { retries: 0, circuit });
  const read = () =>
    client.resources.list("ach").then(
      () => "answered",
      (error: unknown) => error,
    );
  return { circuit, read, asConsoleError, BankCircuitOpenError };
}

describe("one breaker per environment across copies of the module", () => {
  it("opens for every copy on failures seen by one, and each copy refuses with its own error classes", async () => {
    const index = await bundle();
    const route = await bundle();
    expect(route.BankCircuitOpenError).not.toBe(index.BankCircuitOpenError);

    for (let read = 0; read < 2; read += 1) await index.read();
    expect(route.circuit.snapshot().state).toBe("open");
    const sent = bank.received.length;

    const refused = await route.read();
    expect(refused).toBeInstanceOf(route.BankCircuitOpenError);
    expect(route.asConsoleError(refused)).toMatchObject({ status: 503, code: "bank_unavailable" });
    expect(bank.received.length).toBe(sent);
  });

  it("counts failures seen by either copy towards opening it", async () => {
    delete (globalThis as { __bankCircuitStates?: unknown }).__bankCircuitStates;
    const index = await bundle();
    const route = await bundle();
    await index.read();
    expect(route.circuit.snapshot().state).toBe("closed");
    await route.read();
    expect(index.circuit.snapshot()).toMatchObject({ state: "open", failingSince: expect.any(String) });
  });
});
