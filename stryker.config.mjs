// @ts-check
/**
 * Mutation testing of the access, audit and masking code: `npx stryker run` (score and how to read it: docs/testing.md).
 * Files that run only inside Next.js (the Auth.js config, the session lookup, the server-only wiring) are left out:
 * vitest cannot load them, and the Playwright suite covers them.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
const config = {
  testRunner: "vitest",
  vitest: { configFile: "vitest.stryker.config.ts" },
  mutate: [
    "lib/api/**/*.ts",
    "lib/permissions.ts",
    "lib/pii.ts",
    "lib/pii/**/*.ts",
    "lib/audit/**/*.ts",
    "lib/auth/**/*.ts",
    "!**/*.test.ts",
    "!lib/api/index.ts",
    "!lib/audit/index.ts",
    "!lib/audit/export.ts",
    "!lib/auth/config.ts",
    "!lib/auth/current-user.ts",
    "!lib/auth/handlers.ts",
  ],
  ignorePatterns: [".next", ".data", "test-results", "playwright-report", "reports", ".stryker-tmp"],
  coverageAnalysis: "perTest",
  ignoreStatic: true,
  // The machine is shared; each test run starts a sandbox bank and databases.
  concurrency: 2,
  timeoutMS: 60_000,
  reporters: ["clear-text", "progress", "html"],
  htmlReporter: { fileName: "reports/mutation/mutation.html" },
  thresholds: { high: 90, low: 80, break: 80 },
};

export default config;
