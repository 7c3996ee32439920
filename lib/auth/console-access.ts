import "server-only";
import { consoleDb } from "@/lib/db/console";
import { createAccessCache, heldConnectionVersionReader, type VersionReader } from "./access-cache";

let versionReader: { pool: unknown; reader: VersionReader } | undefined;

/** The console process's access cache, checked against `console.access_version` (lib/auth/access-cache.ts). */
export const accessCache = createAccessCache(async () => {
  const { pool } = await consoleDb();
  if (versionReader?.pool !== pool) versionReader = { pool, reader: heldConnectionVersionReader(pool) };
  return versionReader.reader.read();
});
