import "server-only";
import { readEnvOrExit } from "./read-env";
import { consoleEnvSchema } from "./schema";

/** The console's configuration, validated once when the server first imports it. */
export const env = readEnvOrExit(consoleEnvSchema);
