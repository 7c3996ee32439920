import { request } from "@playwright/test";
import { startLocalSandbox } from "./local-sandbox";
import { SandboxClient, type Seed } from "./sandbox-client";

/**
 * What each `sandboxState` costs a test: the kit's own calls, timed against a bank started as the fixture starts it.
 * docs/testing-with-the-sandbox.md quotes its output.
 *
 *   node --import tsx e2e/kit/isolation-cost.ts [rounds]
 */

const rounds = Number(process.argv[2] ?? 20);
const credentials = { username: "sandbox-demo-key", password: "sandbox-demo-secret-change-me" };

async function timed(action: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await action();
  return performance.now() - started;
}

const startedAt = performance.now();
const bank = await startLocalSandbox({ directory: process.cwd(), credentials, lifecycle: "on", env: {} });
const startMs = performance.now() - startedAt;
const api = await request.newContext({ baseURL: bank.url, httpCredentials: { ...credentials, send: "always" } });
const sandbox = new SandboxClient(api, bank.url, credentials);

try {
  const snapshotOf = async (seed: Seed) => {
    await sandbox.reset(seed);
    return JSON.stringify(await sandbox.snapshot());
  };
  const [demoFile, emptyFile] = [await snapshotOf("demo"), await snapshotOf("empty")];
  const states: Array<[string, () => Promise<unknown>]> = [
    ['"demo" (POST /sandbox/reset)', () => sandbox.reset("demo")],
    ['"empty" (POST /sandbox/reset)', () => sandbox.reset("empty")],
    [`{ snapshot } of the demo data (PUT /sandbox/snapshot, ${(demoFile.length / 1024).toFixed(1)} KiB)`, () => sandbox.restore(demoFile)],
    [`{ snapshot } of an empty bank (PUT /sandbox/snapshot, ${(emptyFile.length / 1024).toFixed(1)} KiB)`, () => sandbox.restore(emptyFile)],
    ["faults cleared after the test (DELETE /sandbox/faults)", () => sandbox.faults.clear()],
  ];
  console.log(`sandbox bank started in ${(startMs / 1000).toFixed(1)} s; ${rounds} rounds each, in ms:`);
  console.log("| state | median | p95 | max |\n|---|---|---|---|");
  for (const [name, action] of states) {
    const times: number[] = [];
    for (let round = 0; round < rounds; round++) times.push(await timed(action));
    times.sort((a, b) => a - b);
    const at = (share: number) => Math.round(times[Math.min(times.length - 1, Math.floor(share * times.length))]!);
    console.log(`| ${name} | ${at(0.5)} | ${at(0.95)} | ${at(1)} |`);
  }
} finally {
  await api.dispose();
  await bank.stop();
}
