import { defineConfig } from "@playwright/test";

/**
 * The kit's own Playwright configuration, and the one a team copies: no web server (the kit starts a sandbox bank per
 * worker itself, or uses SANDBOX_URL's), one worker: a bank holds one state at a time, so workers sharing SANDBOX_URL's
 * would reset each other's, and each bank the kit starts costs about 550 MB. No browser either: these specs call the
 * bank over HTTP; a team whose specs open pages adds its own `use` and projects.
 *
 *   npx playwright test --config e2e/kit/playwright.config.ts
 */
export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.ts",
  outputDir: "../../test-results/kit",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  timeout: 30_000,
});
