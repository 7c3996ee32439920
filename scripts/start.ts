/**
 * `npm start`: builds the console if needed, starts one embedded PostgreSQL (unless database URLs are given),
 * the sandbox bank and the console against it, then prints the console URL and the demo logins.
 */
import { createWriteStream, mkdirSync } from "node:fs";
import path from "node:path";
import { demoUsers } from "@/lib/auth/demo-users";
import { startEmbeddedPostgres } from "@/lib/db/embedded";
import { readEnvOrExit } from "@/lib/env/read-env";
import { consoleEnvSchema, sandboxEnvSchema } from "@/lib/env/schema";
import { ensureConsoleBuilt } from "./lib/build";
import { localSecrets } from "./lib/local-secrets";
import { residentMemoryOfTree, startService, waitUntilReady, type Service } from "./lib/services";

const consoleEnv = readEnvOrExit(consoleEnvSchema);
const sandboxEnv = readEnvOrExit(sandboxEnvSchema);

ensureConsoleBuilt();

// One PGlite instance costs ~500-800 MB; the console and the sandbox bank share one, each in its own schema.
const needsEmbedded = !consoleEnv.DATABASE_URL || !sandboxEnv.SANDBOX_DATABASE_URL;
const embedded = needsEmbedded
  ? await startEmbeddedPostgres({
      dataDir: sandboxEnv.SANDBOX_DATA === "memory" ? undefined : path.join(consoleEnv.DATA_ROOT, `start-${consoleEnv.PORT}`),
    })
  : undefined;

// Every line the services print is also kept, so a run can be inspected (and scanned for leaked secrets) later.
const logDir = path.join(consoleEnv.DATA_ROOT, "logs");
mkdirSync(logDir, { recursive: true });
const logFile = createWriteStream(path.join(logDir, `start-${consoleEnv.PORT}.log`), { flags: "w" });

const services: Service[] = [];
const stopAll = async (code: number) => {
  for (const service of services) service.stop();
  await embedded?.close();
  process.exit(code);
};
process.on("SIGINT", () => void stopAll(0));
process.on("SIGTERM", () => void stopAll(0));

const sandboxUrl = `http://${consoleEnv.SANDBOX_HOST}:${consoleEnv.SANDBOX_PORT}`;
const consoleUrl = `http://${consoleEnv.HOST}:${consoleEnv.PORT}`;

try {
  const sandbox = startService(
    "sandbox",
    process.execPath,
    ["--import", "tsx", "sandbox/main.ts"],
    {
      ...process.env,
      SANDBOX_DATABASE_URL: sandboxEnv.SANDBOX_DATABASE_URL ?? embedded!.url,
    },
    logFile,
  );
  services.push(sandbox);
  await waitUntilReady(`${sandboxUrl}/health`, sandbox);

  const consoleServer = startService(
    "console",
    process.execPath,
    ["--import", "tsx", "scripts/console-server.ts"],
    {
      ...process.env,
      ...localSecrets(consoleEnv.DATA_ROOT, process.env),
      AUTH_TRUST_HOST: "true",
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_URL: consoleEnv.DATABASE_URL ?? embedded!.url,
    },
    logFile,
  );
  services.push(consoleServer);
  await waitUntilReady(`${consoleUrl}/api/health`, consoleServer);

  const memory = residentMemoryOfTree(process.pid);
  console.log(
    [
      "",
      `Console:      ${consoleUrl}`,
      `Sandbox bank: ${sandboxUrl}`,
      `Resident memory of all processes started: ${(memory / 1024 / 1024).toFixed(0)} MiB`,
      ...(consoleEnv.CONSOLE_DEMO_USERS === "on"
        ? ["", "Demo logins (email / password):", ...demoUsers.map((user) => `  ${user.role.padEnd(11)} ${user.email} / ${user.password}`)]
        : []),
      "Press Ctrl+C to stop.",
      "",
    ].join("\n"),
  );
  for (const service of services) {
    service.child.on("exit", (code) => {
      console.error(`${service.name} stopped (exit code ${code}); stopping everything.`);
      void stopAll(code ?? 1);
    });
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  await stopAll(1);
}
