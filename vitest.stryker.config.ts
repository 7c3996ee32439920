import { defineConfig } from "vitest/config";
import base from "./vitest.config";

/** For `npx stryker run`: the suite narrowed to the test files of the mutated code (stryker.config.mjs). */
export default defineConfig({
  ...base,
  test: { ...base.test, include: ["lib/{api,audit,auth}/**/*.test.ts", "lib/pii/**/*.test.ts", "lib/permissions.test.ts"] },
});
