import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // `server-only` throws outside React Server Components; under vitest the whole process is the server.
      "server-only": path.resolve(import.meta.dirname, "tests/support/empty-module.ts"),
    },
  },
  test: {
    include: ["{app,components,lib,sandbox,scripts,tests}/**/*.test.{ts,tsx}"],
    environment: "node",
    // Ceilings, not expectations: tests wait on conditions, and the CPU-bound ones (starting PGlite, seeding) take
    // several times longer on a loaded machine (a fresh-clone run at load ~10 took 32.7 s for one that takes 6 s).
    // A slow machine should make the suite slower, never red.
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // PGlite instances are large; bounded parallelism keeps memory and the 2 cores in check.
    maxWorkers: 2,
  },
});
