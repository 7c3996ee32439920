import "server-only";
import { consoleDb } from "@/lib/db/console";
import { createAccessCache } from "./access-cache";

/** The console process's access cache, checked against `console.access_version` (lib/auth/access-cache.ts). */
export const accessCache = createAccessCache(async () => (await consoleDb()).accessVersion.read());
