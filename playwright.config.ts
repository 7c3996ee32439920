import { defineConfig, devices } from "@playwright/test";

// Ports apart from the defaults, so the suite runs beside a console started with `npm start`.
const port = Number(process.env.E2E_PORT ?? 3100);
const sandboxPort = Number(process.env.E2E_SANDBOX_PORT ?? 4110);
export const baseURL = `http://127.0.0.1:${port}`;
/**
 * Single sign-on against a real OpenID Connect provider that e2e/sso.spec.ts starts on this port
 * (e2e/support/oidc-provider.ts). The console is reached as `localhost` there: Next.js names every loopback request
 * `localhost` inside route handlers, so Auth.js's callback URL says localhost, and the sign-in must start on that origin
 * for the provider's redirect and Auth.js's cookies to match.
 */
export const oidc = {
  consoleOrigin: baseURL.replace("127.0.0.1", "localhost"),
  issuer: `http://127.0.0.1:${Number(process.env.E2E_OIDC_PORT ?? sandboxPort + 1)}`,
  clientId: "console-e2e",
  clientSecret: "e2e-oidc-client-secret-not-for-production",
  name: "Test SSO",
};

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  // One more try under CI: the suite shares one live sandbox whose lifecycle moves objects while it runs, on a
  // 2-core machine. A test that needed it is listed as "flaky" in the report, to be looked at, not hidden.
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"]],
  timeout: 30_000,
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          executablePath: process.env.PLAYWRIGHT_CHROMIUM_EXECUTABLE || undefined,
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
          ],
        },
      },
    },
  ],
  webServer: {
    // The same start command users run, with in-memory data so every run begins from the seed.
    command: "node_modules/.bin/tsx scripts/start.ts",
    url: `${baseURL}/api/health`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PORT: String(port),
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_DATA: "memory",
      LOG_LEVEL: "warn",
      // Webhook retries in a fraction of a second (default base 1 s, cap 1 h), so a failing receiver drives a webhook
      // into error within seconds (e2e/console-actions.spec.ts); the threshold and window stay the defaults.
      SANDBOX_WEBHOOK_RETRY_BASE_MS: "100",
      SANDBOX_WEBHOOK_RETRY_CAP_MS: "400",
      // The specs' webhook receivers listen on this machine; without this the sandbox bank refuses loopback targets.
      SANDBOX_WEBHOOK_ALLOWED_NETWORKS: "127.0.0.0/8,::1/128",
      // e2e/zz-secret-scan.spec.ts points the production environment at the sandbox bank, which listens on http.
      BANK_PRODUCTION_ALLOW_HTTP: "on",
      // One signed-in state per role serves the whole suite, and a role can go unused for longer than the default
      // 30-minute idle timeout on a loaded machine; the timeout itself is specified in lib/auth/sessions.test.ts.
      SESSION_IDLE_TIMEOUT_MINUTES: "240",
      OIDC_ISSUER: oidc.issuer,
      OIDC_CLIENT_ID: oidc.clientId,
      OIDC_CLIENT_SECRET: oidc.clientSecret,
      OIDC_NAME: oidc.name,
    },
  },
});
