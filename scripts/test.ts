/**
 * `npm test`: every quality gate in order (typecheck, lint, unit and integration tests, production build,
 * end-to-end tests in headless Chromium). Stops at the first failing gate; the last line is Playwright's summary.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { resolveChromium } from "./lib/chromium";

const bin = (name: string) => path.resolve("node_modules/.bin", name);

function gate(title: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  console.log(`\n=== ${title}: ${path.basename(command)} ${args.join(" ")}`);
  const result = spawnSync(command, args, { stdio: "inherit", env });
  if (result.status !== 0) {
    console.error(`\n${title} failed (exit code ${result.status ?? result.signal}).`);
    process.exit(result.status ?? 1);
  }
}

const productionEnv: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" };

gate("Typecheck", bin("tsc"), ["--noEmit"]);
gate("Lint", bin("eslint"), [".", "--max-warnings=0"]);
gate("Unit and integration tests", bin("vitest"), ["run"]);
gate("Production build", bin("next"), ["build"], productionEnv);

const chromium = resolveChromium();
gate("End-to-end tests", bin("playwright"), ["test"], {
  ...process.env,
  ...(chromium ? { PLAYWRIGHT_CHROMIUM_EXECUTABLE: chromium } : {}),
});
