import { defineConfig } from "@playwright/test";

/**
 * The kit's own Playwright configuration, and the one a team copies: no web server (the kit starts its sandbox bank
 * itself, or uses SANDBOX_URL), one worker, since one sandbox bank holds one state at a time. No browser either: the
 * specs call the bank over HTTP; a team whose specs open pages adds its own `use` and projects.
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
