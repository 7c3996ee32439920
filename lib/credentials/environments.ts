/** The two bank environments the console can talk to. Safe for client components (no secrets here). */
export const environments = ["sandbox", "production"] as const;
export type Environment = (typeof environments)[number];

export function isEnvironment(value: unknown): value is Environment {
  return typeof value === "string" && (environments as readonly string[]).includes(value);
}

/** The cookie holding each staff member's choice of environment (read by getActiveEnvironment in lib/credentials/index.ts). */
export const environmentCookie = "console-environment";
