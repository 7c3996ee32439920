import { readEnvOrExit } from "@/lib/env/read-env";
import { sandboxEnvSchema } from "@/lib/env/schema";

/** The sandbox bank's configuration, validated once at start. */
export const env = readEnvOrExit(sandboxEnvSchema);
