import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const debianChromium = "/usr/bin/chromium";

/**
 * Finds a Chromium for Playwright: PLAYWRIGHT_CHROMIUM_EXECUTABLE if set, else Debian's /usr/bin/chromium, else
 * installs Debian's package when running as root, else Playwright's own browser. Says what it did (on stderr: a
 * benchmark's stdout is its report).
 * Returns the executable path, or undefined to let Playwright use its own download.
 */
export function resolveChromium(): string | undefined {
  const configured = process.env.PLAYWRIGHT_CHROMIUM_EXECUTABLE;
  if (configured) {
    if (!existsSync(configured)) {
      throw new Error(`PLAYWRIGHT_CHROMIUM_EXECUTABLE=${configured} does not exist; point it at a Chromium binary or unset it.`);
    }
    console.error(`Chromium: using PLAYWRIGHT_CHROMIUM_EXECUTABLE=${configured}`);
    return configured;
  }
  if (existsSync(debianChromium)) {
    console.error(`Chromium: using ${debianChromium}`);
    return debianChromium;
  }
  if (process.getuid?.() === 0 && existsSync("/usr/bin/apt-get")) {
    console.error("Chromium: not found; installing Debian's chromium package (apt-get, running as root)...");
    const apt = (args: string[]) =>
      spawnSync("apt-get", args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } }).status === 0;
    if (apt(["update", "-qq"]) && apt(["install", "-y", "-qq", "chromium"]) && existsSync(debianChromium)) {
      console.error(`Chromium: installed ${debianChromium}`);
      return debianChromium;
    }
    console.error("Chromium: the apt-get install failed.");
  }
  console.error(
    "Chromium: no system Chromium; falling back to Playwright's own browser. If it is missing, run " +
      "`npx playwright install chromium` (needs internet), install Debian's chromium as root, or set PLAYWRIGHT_CHROMIUM_EXECUTABLE.",
  );
  return undefined;
}
