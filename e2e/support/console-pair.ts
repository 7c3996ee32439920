import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createScratchDatabase } from "@/lib/db/scratch-database";
import { startService, waitUntilReady, type Service } from "../../scripts/lib/services";

/** The PostgreSQL server the storage tests use; the two-console test runs only when it is given (CI gives it). */
export const testPostgresUrl = process.env.TEST_DATABASE_URL;

export interface ConsolePair {
  sandboxUrl: string;
  /** Receives the bank's notifications and keeps the index (INDEX on). */
  receiving: string;
  /** Keeps no index of its own (INDEX off): whatever reaches its browsers came through PostgreSQL. */
  watching: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A sandbox bank and two console processes on one new PostgreSQL database (dropped by `stop`), apart from the
 * console the e2e run started: their own bank, so their subscriptions never take the main console's. Its lifecycle is
 * off: a test moves an object with the sandbox's control API (POST /sandbox/{resource}/{id}/transition) when it is
 * ready to watch, instead of waiting for the lifecycle's step. The watching console listens on `watchingPort`; the others on free ports.
 */
export async function startConsolePair(postgresUrl: string, watchingPort: number): Promise<ConsolePair> {
  const database = await createScratchDatabase(postgresUrl, `live_e2e_${process.pid}_${randomBytes(3).toString("hex")}`);
  const dataRoot = mkdtempSync(path.join(tmpdir(), "console-pair-"));
  const [sandboxPort, receivingPort] = [await freePort(), await freePort()];
  const services: Service[] = [];
  const stop = async () => {
    for (const service of services.reverse()) {
      service.stop();
      if (service.child.exitCode === null) await new Promise((resolve) => service.child.once("exit", resolve));
    }
    await database.drop();
    rmSync(dataRoot, { recursive: true, force: true });
  };
  const shared = {
    ...process.env,
    HOST: "127.0.0.1",
    LOG_LEVEL: "warn",
    DATA_ROOT: dataRoot,
    SANDBOX_PORT: String(sandboxPort),
  };
  const secrets = { auth: randomBytes(32).toString("base64"), credentials: randomBytes(32).toString("base64") };
  const consoleEnv = (port: number, index: "on" | "off") => ({
    ...shared,
    PORT: String(port),
    DATABASE_URL: database.url,
    INDEX: index,
    // The same secrets in both, as several instances of one deployment have: a session of one is valid on the other.
    AUTH_SECRET: secrets.auth,
    CREDENTIALS_ENCRYPTION_KEY: secrets.credentials,
    AUTH_TRUST_HOST: "true",
    NODE_ENV: "production" as const,
    NEXT_TELEMETRY_DISABLED: "1",
  });
  try {
    const sandbox = startService("pair-sandbox", process.execPath, ["--import", "tsx", "sandbox/main.ts"], {
      ...shared,
      PORT: String(receivingPort),
      SANDBOX_DATABASE_URL: database.url,
      SANDBOX_LIFECYCLE: "off",
      SANDBOX_WEBHOOK_POLL_MS: "50",
    });
    services.push(sandbox);
    await waitUntilReady(`http://127.0.0.1:${sandboxPort}/health`, sandbox);
    // One after the other: the first migrates the shared database.
    for (const [name, port, index] of [
      ["receiving", receivingPort, "on"],
      ["watching", watchingPort, "off"],
    ] as const) {
      const server = startService(`pair-${name}`, process.execPath, ["--import", "tsx", "scripts/console-server.ts"], consoleEnv(port, index));
      services.push(server);
      await waitUntilReady(`http://127.0.0.1:${port}/api/health`, server);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    sandboxUrl: `http://127.0.0.1:${sandboxPort}`,
    receiving: `http://127.0.0.1:${receivingPort}`,
    watching: `http://127.0.0.1:${watchingPort}`,
    stop,
  };
}
