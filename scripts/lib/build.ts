import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const sourceRoots = ["app", "components", "lib", "public", "proxy.ts", "package.json", "next.config.mjs", "tailwind.config.ts", "postcss.config.mjs"];

function newestChange(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce((newest, child) => Math.max(newest, newestChange(path.join(entry, child))), stat.mtimeMs);
}

/**
 * Runs `next build` when there is no build yet or a source file changed after the last one. Its output goes to stderr:
 * it is progress, and a benchmark's stdout is its report.
 */
export function ensureConsoleBuilt(): void {
  const buildId = ".next/BUILD_ID";
  const builtAt = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
  if (builtAt > Math.max(...sourceRoots.map(newestChange))) return;
  console.error(builtAt ? "Sources changed since the last build: rebuilding the console..." : "Building the console (first start)...");
  const result = spawnSync(path.resolve("node_modules/.bin/next"), ["build"], {
    stdio: ["inherit", 2, "inherit"],
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" } as NodeJS.ProcessEnv,
  });
  if (result.status !== 0) {
    console.error("next build failed; see the output above.");
    process.exit(result.status ?? 1);
  }
}
