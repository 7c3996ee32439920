/**
 * `npm run cluster`: the sandbox bank, CLUSTER_INSTANCES console processes (default 3) on the PostgreSQL database in
 * DATABASE_URL, and HAProxy in front of them on PORT (docs/deploying.md). Builds the console first if needed, as
 * `npm start` does. Every instance runs the index (INDEX=on): its worker claims notifications with leases and SKIP
 * LOCKED, so instances share the inbox and none is needed for another to go on. Ctrl+C stops everything cleanly.
 */
import { createWriteStream, mkdirSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { demoUsers } from "@/lib/auth/demo-users";
import { readEnvOrExit } from "@/lib/env/read-env";
import { consoleEnvSchema, sandboxEnvSchema } from "@/lib/env/schema";
import { ensureConsoleBuilt } from "./lib/build";
import { startCluster, type Cluster } from "./lib/cluster";
import { localSecrets } from "./lib/local-secrets";
import { startService, waitUntilReady, type Service } from "./lib/services";

const consoleEnv = readEnvOrExit(consoleEnvSchema);
const sandboxEnv = readEnvOrExit(sandboxEnvSchema);
const { CLUSTER_INSTANCES: instanceCount } = readEnvOrExit(
  z.object({
    CLUSTER_INSTANCES: z.coerce
      .number({ message: "expected a whole number" })
      .int("expected a whole number")
      .min(1, "expected at least 1")
      .max(16, "expected at most 16")
      .default(3),
  }),
);
if (!consoleEnv.DATABASE_URL) {
  console.error(
    "DATABASE_URL is required: every instance shares one PostgreSQL database (the embedded one serves one process). " +
      "For example: DATABASE_URL=postgres://postgres@127.0.0.1:5432/console npm run cluster",
  );
  process.exit(1);
}

ensureConsoleBuilt();

const logDir = path.join(consoleEnv.DATA_ROOT, "logs");
mkdirSync(logDir, { recursive: true });
const logFile = createWriteStream(path.join(logDir, `cluster-${consoleEnv.PORT}.log`), { flags: "w" });
const host = consoleEnv.HOST === "0.0.0.0" || consoleEnv.HOST === "::" ? "127.0.0.1" : consoleEnv.HOST;
const publicUrl = consoleEnv.CONSOLE_PUBLIC_URL ?? `http://${host}:${consoleEnv.PORT}`;

let sandbox: Service | undefined;
let cluster: Cluster | undefined;
let stopping = false;
const stopAll = async (code: number) => {
  if (stopping) return;
  stopping = true;
  await cluster?.stop();
  sandbox?.stop();
  process.exit(code);
};
process.on("SIGINT", () => void stopAll(0));
process.on("SIGTERM", () => void stopAll(0));

try {
  sandbox = startService(
    "sandbox",
    process.execPath,
    ["--import", "tsx", "sandbox/main.ts"],
    { ...process.env, SANDBOX_DATABASE_URL: sandboxEnv.SANDBOX_DATABASE_URL ?? consoleEnv.DATABASE_URL },
    logFile,
  );
  await waitUntilReady(`http://${consoleEnv.SANDBOX_HOST}:${consoleEnv.SANDBOX_PORT}/health`, sandbox);
  cluster = await startCluster({
    host: consoleEnv.HOST,
    port: consoleEnv.PORT,
    instances: instanceCount,
    logFile,
    env: {
      ...process.env,
      // One set of secrets for all: a session signed by one instance is valid on every other.
      ...localSecrets(consoleEnv.DATA_ROOT, process.env),
      AUTH_TRUST_HOST: "true",
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      // The bank posts its notifications to the load balancer, which passes each to any instance.
      CONSOLE_PUBLIC_URL: publicUrl,
      // HAProxy runs here and adds X-Forwarded-For: the client's address for the sign-in throttle.
      TRUSTED_PROXIES: ["127.0.0.1", ...consoleEnv.TRUSTED_PROXIES].join(","),
    },
  });
  console.log(
    [
      "",
      `Console (HAProxy): ${cluster.url}`,
      ...cluster.instances.map((instance) => `  ${instance.name}: http://127.0.0.1:${instance.port} (pid ${instance.service.child.pid})`),
      `HAProxy configuration: ${path.join(cluster.configDir, "haproxy.cfg")}`,
      `Sandbox bank: http://${consoleEnv.SANDBOX_HOST}:${consoleEnv.SANDBOX_PORT}`,
      ...(consoleEnv.CONSOLE_DEMO_USERS === "on"
        ? ["", "Demo logins (email / password):", ...demoUsers.map((user) => `  ${user.role.padEnd(11)} ${user.email} / ${user.password}`)]
        : []),
      "Press Ctrl+C to stop.",
      "",
    ].join("\n"),
  );
  // An instance that stops is only reported: the others serve on, as a load balancer's pool does.
  for (const instance of cluster.instances)
    instance.service.child.on("exit", (code, signal) => !stopping && console.error(`${instance.name} stopped (${signal ?? `exit code ${code}`}).`));
  sandbox.child.on("exit", (code) => {
    console.error(`sandbox stopped (exit code ${code}); stopping everything.`);
    void stopAll(code ?? 1);
  });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  await stopAll(1);
}
