import type { ChildProcess } from "node:child_process";
import { createBankClient, type BankClient } from "@/lib/bank/client";
import { readEnv } from "@/lib/env/read-env";
import { sandboxEnvSchema } from "@/lib/env/schema";
import { freePort, startChild, waitForHealth } from "./run";

/**
 * A sandbox bank in its own process, seeded with `rows` ACH transfers plus the demo set, lifecycle off (the bench's
 * reads are the only load), on `databaseUrl` or in memory; with a client for it. Seeding a million rows takes
 * minutes, so readiness waits up to 30 min. `consolePort`: where a console will listen, so the bank lets that
 * console's receiver subscribe (the console's own address is refused otherwise, sandbox/webhooks/target.ts). The
 * caller stops `child` (stopChild).
 */
export async function startSeededSandbox(
  rows: number,
  databaseUrl?: string,
  consolePort?: number,
): Promise<{ child: ChildProcess; client: BankClient; url: string; readyMs: number }> {
  const { BANK_API_KEY_ID, BANK_API_KEY_SECRET } = readEnv(sandboxEnvSchema);
  const port = await freePort();
  const child = startChild(process.execPath, ["--import", "tsx", "sandbox/main.ts"], {
    SANDBOX_PORT: String(port),
    SANDBOX_SEED: String(rows),
    SANDBOX_LIFECYCLE: "off",
    LOG_LEVEL: "warn",
    ...(consolePort ? { PORT: String(consolePort), SANDBOX_WEBHOOK_ALLOWED_NETWORKS: "127.0.0.0/8" } : {}),
    ...(databaseUrl ? { SANDBOX_DATABASE_URL: databaseUrl } : { SANDBOX_DATA: "memory" }),
  });
  const url = `http://127.0.0.1:${port}`;
  const readyMs = await waitForHealth(`${url}/health`, child, 30 * 60_000);
  const client = createBankClient(
    { baseUrl: url, auth: { type: "basic", keyId: BANK_API_KEY_ID, secret: BANK_API_KEY_SECRET } },
    { timeoutMs: 60_000 },
  );
  return { child, client, url, readyMs };
}
