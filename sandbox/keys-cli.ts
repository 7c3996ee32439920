import { openSandboxDatabase } from "./db";
import { createApiKey } from "./auth/api-keys";
import { loadSigningKey } from "./auth/signing-key";
import { signBearerToken } from "./auth/tokens";

/**
 * `npm run sandbox -- keys create [label]`: creates an API key in the sandbox's database and prints its id, its
 * secret (shown once) and a bearer token for it. With the embedded database, the sandbox must not be running at
 * the same time (one process per PGlite data directory); with SANDBOX_DATABASE_URL it may be.
 */
export async function runKeysCommand(
  args: string[],
  database: { url: string; tokenSecret?: string },
  print: (line: string) => void = console.log,
): Promise<number> {
  const [command, label] = args;
  if (command !== "create") {
    print("usage: npm run sandbox -- keys create [label]");
    return 2;
  }
  const opened = await openSandboxDatabase(database.url);
  try {
    const key = await createApiKey(opened.db, label ?? null);
    const token = await signBearerToken(await loadSigningKey(opened.db, database.tokenSecret), key.id);
    print(`key id:       ${key.id}`);
    print(`key secret:   ${key.secret}`);
    print(`bearer token: ${token}`);
    print("Use HTTP Basic (key id : key secret) or Authorization: Bearer <token>. The secret is not shown again.");
    return 0;
  } finally {
    await opened.close();
  }
}
