import ipaddr from "ipaddr.js";
import { z } from "zod";
import { port, postgresUrl } from "./read-env";

/** `name=value,name2=value2` (the OpenTelemetry form, values URL-encoded) as a record of headers. */
const otlpHeaders = z.string().transform((value, context) => {
  const headers: Record<string, string> = {};
  for (const pair of value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)) {
    const equals = pair.indexOf("=");
    const name = equals > 0 ? pair.slice(0, equals).trim() : "";
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) {
      context.addIssue({ code: "custom", message: "expected name=value pairs separated by commas" });
      return z.NEVER;
    }
    try {
      headers[name] = decodeURIComponent(pair.slice(equals + 1).trim());
    } catch {
      context.addIssue({ code: "custom", message: `the value of ${name} is not URL-encoded` });
      return z.NEVER;
    }
  }
  return headers;
});

/**
 * Every setting of the project, in one place. Each process validates the part it needs once at start
 * (`lib/env/console.ts`, `sandbox/env.ts`); `.env.example` documents each variable with its default.
 */
export const sharedEnvSchema = z.object({
  HOST: z.string().min(1).default("127.0.0.1"),
  /**
   * Where the sandbox bank listens: its own setting, so exposing the console (HOST=0.0.0.0) does not expose a bank
   * whose demo key is published. Default 127.0.0.1.
   */
  SANDBOX_HOST: z.string().min(1).default("127.0.0.1"),
  PORT: port(3000),
  SANDBOX_PORT: port(4010),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Root of the embedded databases' data directories; each process uses a sub-directory named after its port. */
  DATA_ROOT: z.string().min(1).default(".data"),
  /** The sandbox bank's demo API key; the console uses the same pair for the sandbox environment unless saved otherwise. */
  BANK_API_KEY_ID: z.string().min(1).default("sandbox-demo-key"),
  BANK_API_KEY_SECRET: z.string().min(8, "expected at least 8 characters").default("sandbox-demo-secret-change-me"),
});

export const consoleEnvSchema = sharedEnvSchema.extend({
  /** The console's own database (staff users, audit, stored credentials). Unset: embedded PGlite under DATA_ROOT. */
  DATABASE_URL: postgresUrl.optional(),
  /**
   * PostgreSQL only: the migration role that owns the console's tables (docs/database-roles.md). Set: migrations run
   * as it, and DATABASE_URL's role gets only what the console needs; unset: DATABASE_URL's role does both.
   */
  DATABASE_MIGRATION_URL: postgresUrl.optional(),
  /**
   * `off`: the console does not migrate its database at start, where `npm run db:migrate` runs as its own deployment
   * step; its role then needs no right to create anything (docs/deploying.md). Default `on`: it migrates on first use.
   */
  DATABASE_MIGRATE_AT_START: z.enum(["on", "off"], { message: "expected on or off" }).default("on"),
  /** Signs session cookies (next-auth reads it itself). Required at run time; the start command generates one when unset. */
  AUTH_SECRET: z.string().min(32, "expected at least 32 characters").optional(),
  /** Encrypts bank credentials saved in the settings page (AES-256-GCM): 32 bytes as 64 hex digits or base64. */
  CREDENTIALS_ENCRYPTION_KEY: z
    .string()
    .regex(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=?)$/, "expected 32 bytes as 64 hex digits or base64")
    .optional(),
  /**
   * The reverse proxies in front of the console, by IP address (comma-separated). Only a request that came through one
   * of them has its X-Forwarded-For read past that proxy for the client's address (sign-in throttle).
   */
  TRUSTED_PROXIES: z
    .string()
    .default("")
    .transform((value) =>
      value
        .split(",")
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.union([z.ipv4(), z.ipv6()], { error: "expected IP addresses separated by commas" }))),
  SESSION_MAX_AGE_HOURS: z.coerce
    .number({ message: "expected a number of hours" })
    .positive("expected a positive number of hours")
    .max(720)
    .default(8),
  /** A session unused this long is ended (lib/auth/sessions.ts: use is recorded at most once a minute). */
  SESSION_IDLE_TIMEOUT_MINUTES: z.coerce
    .number({ message: "expected a number of minutes" })
    .int("expected a whole number of minutes")
    .min(2, "expected at least 2 minutes")
    .max(1440)
    .default(30),
  /**
   * On SIGTERM or SIGINT the console stops taking requests and gives those in flight this long to finish before it
   * exits (scripts/console-server.ts); keep it below the orchestrator's kill timeout (Kubernetes: 30 s by default).
   */
  CONSOLE_SHUTDOWN_GRACE_SECONDS: z.coerce
    .number({ message: "expected a number of seconds" })
    .int("expected whole seconds")
    .min(1, "expected at least 1 second")
    .max(600, "expected at most 600 seconds")
    .default(20),
  /** Seed one demo staff user per role into an empty staff table (`off` for a real deployment). */
  CONSOLE_DEMO_USERS: z.enum(["on", "off"], { message: "expected on or off" }).default("on"),
  /** Single sign-on through any OpenID Connect provider: switched on when all three are set. */
  OIDC_ISSUER: z.url({ message: "expected the issuer URL" }).optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_NAME: z.string().min(1).default("Single sign-on"),
  /** Sandbox environment base URL; unset: the sandbox bank started beside the console (http://127.0.0.1:SANDBOX_PORT). */
  BANK_SANDBOX_URL: z.url({ message: "expected a URL" }).optional(),
  /** Production environment: base URL and either an API key pair (HTTP Basic) or a bearer token. */
  BANK_PRODUCTION_URL: z.url({ message: "expected a URL" }).optional(),
  BANK_PRODUCTION_API_KEY_ID: z.string().min(1).optional(),
  BANK_PRODUCTION_API_KEY_SECRET: z.string().min(1).optional(),
  BANK_PRODUCTION_TOKEN: z.string().min(1).optional(),
  /** `on` lets the production environment's base URL (here or saved in Settings) be http: for local testing only. */
  BANK_PRODUCTION_ALLOW_HTTP: z.enum(["on", "off"], { message: "expected on or off" }).default("off"),
  /** Bank client: per-attempt timeout, extra attempts for reads (writes never retry), first backoff before jitter. */
  /** `on`: HSTS (sent over https) carries includeSubDomains; only when every subdomain of the console's host is https. */
  HSTS_INCLUDE_SUBDOMAINS: z.enum(["on", "off"], { message: "expected on or off" }).default("off"),
  BANK_TIMEOUT_MS: z.coerce.number({ message: "expected milliseconds" }).int("expected whole milliseconds").min(1).default(10_000),
  BANK_RETRIES: z.coerce.number({ message: "expected a whole number" }).int("expected a whole number").min(0).max(10).default(2),
  BANK_RETRY_BASE_MS: z.coerce.number({ message: "expected milliseconds" }).int("expected whole milliseconds").min(1).default(200),
  /** Circuit breaker per environment (lib/bank/circuit.ts): bank reads failing this many times in a row open it. */
  BANK_BREAKER_FAILURES: z.coerce.number({ message: "expected a whole number" }).int("expected a whole number").min(1).max(1000).default(5),
  /** How long an open breaker refuses bank reads before one read probes the bank again. */
  BANK_BREAKER_HALF_OPEN_SECONDS: z.coerce.number({ message: "expected seconds" }).int("expected whole seconds").min(1).max(3600).default(15),
  /**
   * Where the bank reaches the console (its webhooks post to `<CONSOLE_PUBLIC_URL>/api/bank-events/<environment>`).
   * Unset: http://HOST:PORT, which only a bank on this machine (the sandbox) can reach.
   */
  CONSOLE_PUBLIC_URL: z.url({ protocol: /^https?$/, message: "expected an http or https URL" }).optional(),
  /** The index of the bank (docs/bank-index.md): `off` stops its worker, backfill and sweep in this process. */
  INDEX: z.enum(["on", "off"], { message: "expected on or off" }).default("on"),
  /** The backfill reads at most this many list pages per second (0: no limit), and this many objects per page. */
  INDEX_BACKFILL_PAGES_PER_SECOND: z.coerce.number({ message: "expected a number" }).min(0, "expected 0 or more").default(5),
  INDEX_BACKFILL_PAGE_SIZE: z.coerce
    .number({ message: "expected a whole number" })
    .int("expected a whole number")
    .min(1)
    .max(1000, "expected at most 1000")
    .default(500),
  /** How often the newest page of every list is read again (a missed event is picked up by the next sweep). */
  INDEX_SWEEP_INTERVAL_MS: z.coerce
    .number({ message: "expected milliseconds" })
    .int("expected whole milliseconds")
    .min(1000, "expected at least 1000 ms")
    .default(60_000),
  /** After a rotation of the receiver's secret, the old one is still accepted this long (deliveries already under way carry it). */
  INDEX_RECEIVER_SECRET_OVERLAP_MINUTES: z.coerce
    .number({ message: "expected a number of minutes" })
    .min(0, "expected 0 or more minutes")
    .max(1440, "expected at most 1440 minutes (a day)")
    .default(10),
  /** Versions older than this many days are purged, except each object's latest (7 years by default). */
  INDEX_RETENTION_DAYS: z.coerce
    .number({ message: "expected a number of days" })
    .int("expected whole days")
    .min(1, "expected at least 1 day")
    .default(2557),
  /** Processed notifications (dead letters too) received more than this many days ago are deleted from the inbox. */
  INDEX_INBOX_RETENTION_DAYS: z.coerce
    .number({ message: "expected a number of days" })
    .int("expected whole days")
    .min(1, "expected at least 1 day")
    .default(90),
  /** Notifications waiting to be processed per environment; past this the receiver answers 503 and the bank retries later. */
  INDEX_INBOX_MAX_PENDING: z.coerce
    .number({ message: "expected a whole number" })
    .int("expected a whole number")
    .min(100, "expected at least 100")
    .default(10_000),
  /** A notification whose object could not be fetched this many times is given up (a dead letter on /events). */
  INDEX_INBOX_MAX_ATTEMPTS: z.coerce
    .number({ message: "expected a whole number" })
    .int("expected a whole number")
    .min(1, "expected at least 1")
    .max(1000, "expected at most 1000")
    .default(40),
  /** Compliance review (docs/reviews.md): a case older than this many hours shows red in the queue (amber from 3/4 of it). */
  REVIEW_SLA_HOURS: z.coerce.number({ message: "expected a number of hours" }).positive("expected a positive number of hours").max(8760).default(48),
  /** How long revealed personal data stays shown before the page masks it again. */
  REVEAL_MINUTES: z.coerce
    .number({ message: "expected a number of minutes" })
    .positive("expected a positive number of minutes")
    .max(1440)
    .default(10),
  /** How long case records (cases, checklists, notes, decisions) are kept; stated in every case record. */
  REVIEW_RECORD_RETENTION_YEARS: z.coerce
    .number({ message: "expected a number of years" })
    .int("expected whole years")
    .min(1, "expected at least 1 year")
    .max(100)
    .default(5),
  /**
   * `/api/metrics` (docs/operations.md) answers only `Authorization: Bearer <METRICS_TOKEN>`. Unset: only requests from
   * this machine's loopback address are answered.
   */
  METRICS_TOKEN: z.string().min(32, "expected at least 32 characters").optional(),
  /**
   * OpenTelemetry traces (docs/operations.md), the standard variables: off unless an endpoint is set. Spans go over
   * OTLP/HTTP as JSON to OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else to `<OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces`.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/, message: "expected the collector's http or https base URL" }).optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url({ protocol: /^https?$/, message: "expected the collector's http or https URL for traces" }).optional(),
  /** Sent with every export, e.g. a collector's API key: `name=value` pairs separated by commas, values URL-encoded. */
  OTEL_EXPORTER_OTLP_HEADERS: otlpHeaders.optional(),
  /** The console sends OTLP over HTTP as JSON; any other protocol named here is refused rather than ignored. */
  OTEL_EXPORTER_OTLP_PROTOCOL: z.enum(["http/json"], { message: "expected http/json (the console exports OTLP over HTTP as JSON)" }).optional(),
  OTEL_SERVICE_NAME: z.string().min(1).default("bank-console"),
  /** Which traces are kept (read by @vercel/otel): default every one; `parentbased_traceidratio` with a ratio keeps a share. */
  OTEL_TRACES_SAMPLER: z
    .enum(["always_on", "always_off", "traceidratio", "parentbased_always_on", "parentbased_always_off", "parentbased_traceidratio"], {
      message: "expected one of the OpenTelemetry samplers, e.g. parentbased_traceidratio",
    })
    .optional(),
  OTEL_TRACES_SAMPLER_ARG: z.coerce
    .number({ message: "expected a ratio from 0 to 1" })
    .min(0, "expected a ratio from 0 to 1")
    .max(1, "expected a ratio from 0 to 1")
    .optional(),
  /** Four-eyes on changes (docs/approvals.md): a change request not approved within this many hours expires. */
  APPROVAL_EXPIRY_HOURS: z.coerce
    .number({ message: "expected a number of hours" })
    .positive("expected a positive number of hours")
    .max(720, "expected at most 720 hours (30 days)")
    .default(24),
});

/** A duration in whole milliseconds, at least 1. */
const milliseconds = (fallback: number) =>
  z.coerce.number({ message: "expected milliseconds" }).int("expected whole milliseconds").min(1, "expected at least 1 ms").default(fallback);

export const sandboxEnvSchema = sharedEnvSchema.extend({
  /** The sandbox bank's database. Unset: embedded PGlite under DATA_ROOT (or in memory with SANDBOX_DATA=memory). */
  SANDBOX_DATABASE_URL: postgresUrl.optional(),
  SANDBOX_DATA: z.enum(["disk", "memory"], { message: "expected disk or memory" }).default("disk"),
  /** Data set loaded into an empty database: demo, empty, or a number of objects (e.g. 100000 for benchmarks). */
  SANDBOX_SEED: z
    .string()
    .regex(/^(demo|empty|[1-9][0-9]{0,6})$/, "expected demo, empty or a number of objects up to 9999999")
    .default("demo")
    .transform((value) => (value === "demo" || value === "empty" ? value : Number(value))),
  /** The lifecycle engine moves pending objects through their states over time; speed multiplies its pace. */
  SANDBOX_LIFECYCLE: z.enum(["on", "off"], { message: "expected on or off" }).default("on"),
  /** The sandbox-only control API (`/sandbox/...`: reset, snapshots, transitions, clock, faults); off answers 404. */
  SANDBOX_CONTROL: z.enum(["on", "off"], { message: "expected on or off" }).default("on"),
  SANDBOX_LIFECYCLE_SPEED: z.coerce.number({ message: "expected a number" }).positive("expected a positive number").default(1),
  /** Public base URL of the sandbox (page_next, notification urls, DPoP htu). Unset: http://SANDBOX_HOST:SANDBOX_PORT. */
  SANDBOX_PUBLIC_URL: z.url({ message: "expected a URL" }).optional(),
  /** Signs bearer tokens and card access tokens (HS256). Unset: generated once and kept in the sandbox database. */
  SANDBOX_TOKEN_SECRET: z.string().min(32, "expected at least 32 characters").optional(),
  /** Webhook delivery (docs/webhooks.md): retry delays, error threshold and window, receiver timeout, poll interval. */
  SANDBOX_WEBHOOK_RETRY_BASE_MS: milliseconds(1000),
  SANDBOX_WEBHOOK_RETRY_CAP_MS: milliseconds(3_600_000),
  SANDBOX_WEBHOOK_ERROR_THRESHOLD: z.coerce
    .number({ message: "expected a whole number" })
    .int("expected a whole number")
    .min(1, "expected at least 1")
    .default(10),
  SANDBOX_WEBHOOK_ERROR_WINDOW_MS: milliseconds(300_000),
  SANDBOX_WEBHOOK_TIMEOUT_MS: milliseconds(10_000),
  SANDBOX_WEBHOOK_POLL_MS: milliseconds(200),
  /** Refuse webhook targets on the console's own address (HOST:PORT); docs/webhooks.md gives the trade-off. */
  SANDBOX_WEBHOOK_REFUSE_CONSOLE: z.enum(["on", "off"], { message: "expected on or off" }).default("on"),
  /**
   * Networks besides the public internet that webhook urls may resolve to (comma-separated CIDR, e.g.
   * `127.0.0.0/8,::1/128` for receivers on this machine). Unset: none; loopback and private addresses are refused.
   */
  SANDBOX_WEBHOOK_ALLOWED_NETWORKS: z
    .string()
    .default("")
    .transform((value) =>
      value
        .split(",")
        .map((network) => network.trim())
        .filter(Boolean),
    )
    .refine(
      (networks) => networks.every((network) => ipaddr.isValidCIDR(network)),
      "expected comma-separated networks in CIDR form, e.g. 127.0.0.0/8,::1/128",
    ),
});

export type ConsoleEnv = z.infer<typeof consoleEnvSchema>;
export type SandboxEnv = z.infer<typeof sandboxEnvSchema>;
