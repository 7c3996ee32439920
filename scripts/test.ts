/**
 * `npm test`: every quality gate in order (typecheck, lint, unit and integration tests, production build,
 * end-to-end tests in headless Chromium, the short cluster check). Stops at the first failing gate.
 * `tsx scripts/test.ts build e2e` runs only the named gates (`npm run test:e2e`).
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { resolveChromium } from "./lib/chromium";

const bin = (name: string) => path.resolve("node_modules/.bin", name);
const productionEnv: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" };

const gates = {
  typecheck: () => run("Typecheck", bin("tsc"), ["--noEmit"]),
  lint: () => {
    run("Lint", bin("eslint"), [".", "--max-warnings=0"]);
    run("Formatting", bin("prettier"), ["--check", "."]);
  },
  unit: () => {
    // Shuffled files and tests in a new order every run, so an order dependency shows up; the seed is printed to
    // replay a failing order (VITEST_SEED=<seed>).
    const seed = process.env.VITEST_SEED ?? String(Math.floor(Math.random() * 2 ** 31));
    console.log(
      `\nVitest shuffle seed ${seed}: replay with VITEST_SEED=${seed} npm test, or npx vitest run --sequence.shuffle --sequence.seed=${seed}`,
    );
    run("Unit and integration tests", bin("vitest"), ["run", "--sequence.shuffle", `--sequence.seed=${seed}`]);
  },
  build: () => run("Production build", bin("next"), ["build"], productionEnv),
  e2e: () => {
    const chromium = resolveChromium();
    run("End-to-end tests", bin("playwright"), ["test"], { ...process.env, ...(chromium ? { PLAYWRIGHT_CHROMIUM_EXECUTABLE: chromium } : {}) });
  },
  // Two instances behind HAProxy on PostgreSQL, one killed and both restarted in turn, on the build above
  // (docs/testing.md, "The cluster check"); last, because it needs the build and the machine to itself.
  cluster: () => run("Cluster check", bin("tsx"), ["scripts/bench/cluster.ts", "--short"]),
};

function run(title: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  console.log(`\n=== ${title}: ${path.basename(command)} ${args.join(" ")}`);
  const result = spawnSync(command, args, { stdio: "inherit", env });
  if (result.status !== 0) {
    console.error(`\n${title} failed (exit code ${result.status ?? result.signal}).`);
    process.exit(result.status ?? 1);
  }
}

const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !(name in gates));
if (unknown.length > 0) {
  console.error(`Unknown gate(s): ${unknown.join(", ")}. Gates: ${Object.keys(gates).join(", ")}.`);
  process.exit(2);
}
for (const [name, runGate] of Object.entries(gates)) {
  if (requested.length === 0 || requested.includes(name)) runGate();
}
