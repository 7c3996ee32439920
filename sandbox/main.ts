import path from "node:path";
import { startEmbeddedPostgres } from "@/lib/db/embedded";
import { createLogger } from "@/lib/log";
import { webhookSettingsFromEnv } from "./webhooks/settings";
import { env } from "./env";
import { runKeysCommand } from "./keys-cli";
import { startSandbox } from "./server";

// `npm run sandbox` serves the sandbox bank; `npm run sandbox -- keys create` issues an API key.
const log = createLogger({ level: env.LOG_LEVEL, service: "sandbox" });
const dataDir = env.SANDBOX_DATA === "memory" ? undefined : path.join(env.DATA_ROOT, `sandbox-${env.SANDBOX_PORT}`);
const [command, ...rest] = process.argv.slice(2);

if (command === "keys") {
  if (!env.SANDBOX_DATABASE_URL && !dataDir) {
    console.error("keys create needs a persistent database: unset SANDBOX_DATA=memory or set SANDBOX_DATABASE_URL.");
    process.exit(2);
  }
  if (!env.SANDBOX_DATABASE_URL && (await sandboxIsRunning())) {
    console.error(`The sandbox bank on port ${env.SANDBOX_PORT} holds its embedded database: stop it, then run this again.`);
    process.exit(2);
  }
  const embedded = env.SANDBOX_DATABASE_URL ? undefined : await startEmbeddedPostgres({ dataDir });
  const code = await runKeysCommand(rest, { url: env.SANDBOX_DATABASE_URL ?? embedded!.url, tokenSecret: env.SANDBOX_TOKEN_SECRET });
  await embedded?.close();
  process.exit(code);
} else if (command !== undefined) {
  console.error(`unknown command ${command}; usage: npm run sandbox [-- keys create [label]]`);
  process.exit(2);
}

async function sandboxIsRunning(): Promise<boolean> {
  try {
    await fetch(`http://${env.SANDBOX_HOST}:${env.SANDBOX_PORT}/health`, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}

const sandbox = await startSandbox({
  port: env.SANDBOX_PORT,
  host: env.SANDBOX_HOST,
  databaseUrl: env.SANDBOX_DATABASE_URL,
  dataDir,
  publicUrl: env.SANDBOX_PUBLIC_URL,
  seed: env.SANDBOX_SEED,
  demoKey: { id: env.BANK_API_KEY_ID, secret: env.BANK_API_KEY_SECRET },
  tokenSecret: env.SANDBOX_TOKEN_SECRET,
  settings: {
    lifecycle: env.SANDBOX_LIFECYCLE,
    lifecycleSpeed: env.SANDBOX_LIFECYCLE_SPEED,
    control: env.SANDBOX_CONTROL,
    webhooks: webhookSettingsFromEnv(env),
  },
  log,
});
log.info({ url: sandbox.url, seed: env.SANDBOX_SEED, lifecycle: env.SANDBOX_LIFECYCLE }, "sandbox bank ready");

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "sandbox bank stopping");
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, "sandbox bank did not stop cleanly");
        process.exit(1);
      },
    );
  });
}
