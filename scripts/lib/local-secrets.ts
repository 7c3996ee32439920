import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const generated = ["AUTH_SECRET", "CREDENTIALS_ENCRYPTION_KEY"] as const;
type LocalSecrets = Record<(typeof generated)[number], string>;

/**
 * The console's own secrets for a machine that was given none: generated once (32 random bytes each) and kept in
 * `<DATA_ROOT>/secrets.json` (mode 0600), so sessions and encrypted credentials survive a restart. Values set in the
 * environment always win; production deployments set them there.
 */
export function localSecrets(dataRoot: string, environment: NodeJS.ProcessEnv): LocalSecrets {
  const file = path.join(dataRoot, "secrets.json");
  const stored: Partial<LocalSecrets> = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
  let changed = false;
  for (const name of generated) {
    if (!stored[name]) {
      stored[name] = randomBytes(32).toString("base64");
      changed = true;
    }
  }
  if (changed) {
    mkdirSync(dataRoot, { recursive: true });
    writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  return Object.fromEntries(generated.map((name) => [name, environment[name] || stored[name]!])) as LocalSecrets;
}
