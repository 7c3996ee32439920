import type { AddressInfo } from "node:net";
import { serve, type HttpBindings, type ServerType } from "@hono/node-server";
import type { Logger } from "pino";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "@/lib/db/embedded";
import { createLogger } from "@/lib/log";
import { createApp } from "./app";
import { ApiKeyStore, ensureApiKey, type IssuedKey } from "./auth/api-keys";
import { loadSigningKey } from "./auth/signing-key";
import { SandboxClock } from "./control/clock";
import { defaultSandboxSettings, type SandboxContext, type SandboxSettings } from "./context";
import { openSandboxDatabase } from "./db";
import { startLifecycleEngine } from "./lifecycle/engine";
import { seedDatabase } from "./seed";
import { releaseEveryClaim } from "./webhooks/delivery-store";
import { webhookRoutes } from "./webhooks/routes";
import { startDeliveryWorker } from "./webhooks/worker";

export interface StartSandboxOptions {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  host?: string;
  /** A PostgreSQL URL. Unset: embedded PGlite, on disk under `dataDir` or in memory when that is unset too. */
  databaseUrl?: string;
  dataDir?: string;
  /** Public base URL; unset: http://host:port. */
  publicUrl?: string;
  /** Data loaded into an empty database. */
  seed?: "demo" | "empty" | number;
  /** The demo API key made valid at start (BANK_API_KEY_ID / BANK_API_KEY_SECRET in sandbox/main.ts). */
  demoKey?: IssuedKey;
  /** Signs bearer and card access tokens; unset: generated once and kept in the database. */
  tokenSecret?: string;
  settings?: Partial<SandboxSettings>;
  log?: Logger;
}

export interface RunningSandbox {
  /** The public base URL (`publicUrl` when given). */
  url: string;
  /** Where it listens, e.g. for a proxy in front of it when `url` names that proxy. */
  listenUrl: string;
  context: SandboxContext;
  signingKey: Uint8Array;
  close(): Promise<void>;
}

function listen(server: ServerType): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    if (server.listening) resolve(server.address() as AddressInfo);
    else server.once("listening", () => resolve(server.address() as AddressInfo));
  });
}

/**
 * Starts the sandbox bank: opens (and migrates) its database, makes the demo key valid, seeds an empty database,
 * serves the API and starts the webhook delivery worker. Used by sandbox/main.ts and by every integration test.
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const log = options.log ?? createLogger({ level: "silent", service: "sandbox" });
  const host = options.host ?? "127.0.0.1";
  let embedded: EmbeddedPostgres | undefined;
  const url = options.databaseUrl ?? (embedded = await startEmbeddedPostgres({ dataDir: options.dataDir })).url;
  const database = await openSandboxDatabase(url);
  const closers: (() => Promise<void>)[] = [async () => database.close(), async () => embedded?.close()];
  const closeAll = async () => {
    for (const close of closers.splice(0)) await close();
  };
  try {
    if (options.demoKey) await ensureApiKey(database.db, options.demoKey, "demo key (BANK_API_KEY_ID)");
    const signingKey = await loadSigningKey(database.db, options.tokenSecret);
    // Embedded PGlite is this process's alone: a delivery claim still held is a killed process's, free at once.
    if (embedded) await releaseEveryClaim(database.db);

    // The routes need the public URL, known only once listening (port 0): until then, requests get a 503.
    // The Node bindings (the connection) go along: a fault drops it, and /openapi.json is rate-limited per address.
    const routing: { handler?: (request: Request, env: HttpBindings) => Response | Promise<Response> } = {};
    const server = serve({
      fetch: (request, env) => (routing.handler ? routing.handler(request, env as HttpBindings) : new Response(null, { status: 503 })),
      hostname: host,
      port: options.port ?? 0,
    });
    closers.unshift(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const address = await listen(server);
    const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
    const listenUrl = `http://${shownHost}:${address.port}`;
    const clock = await SandboxClock.load(database.db);
    const context: SandboxContext = {
      database,
      db: database.db,
      baseUrl: (options.publicUrl ?? listenUrl).replace(/\/+$/, ""),
      settings: { ...defaultSandboxSettings, ...options.settings },
      now: () => clock.now(),
      clock,
      log,
    };
    await seedDatabase(context, options.seed ?? "empty");
    const app = createApp(context, { keys: new ApiKeyStore(database.db), signingKey, webhookRoutes: webhookRoutes(context) });
    routing.handler = app.fetch;
    const worker = startDeliveryWorker(context);
    context.nudgeDeliveries = worker.nudge;
    closers.unshift(() => worker.stop());
    const lifecycle = startLifecycleEngine(context);
    closers.unshift(() => lifecycle.stop());
    log.info({ url: context.baseUrl }, "sandbox bank listening");
    return { url: context.baseUrl, listenUrl, context, signingKey, close: closeAll };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
