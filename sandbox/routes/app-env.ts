/** Hono environment of the sandbox's routes: the authenticated API key id is set by the auth middleware. */
export type AppEnv = { Variables: { apiKeyId: string } };
