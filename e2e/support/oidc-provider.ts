import type { Server } from "node:http";
import Provider from "oidc-provider";
import { oidc } from "../../playwright.config";

/** What the provider says about each of its accounts; the login name typed on its page is the subject (`sub`). */
export type OidcAccounts = Record<string, { email: string; email_verified: boolean }>;

/**
 * A real OpenID Connect provider (oidc-provider, its own development login and consent pages) on loopback, with the
 * console registered as a client. Any password is accepted; the login name picks the account.
 */
export async function startOidcProvider(accounts: OidcAccounts): Promise<{ close(): Promise<void> }> {
  const issuer = new URL(oidc.issuer);
  const provider = new Provider(oidc.issuer, {
    clients: [
      {
        client_id: oidc.clientId,
        client_secret: oidc.clientSecret,
        redirect_uris: [`${oidc.consoleOrigin}/api/auth/callback/oidc`],
        response_types: ["code"],
        grant_types: ["authorization_code"],
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"] },
    // Auth.js reads the person from the ID token, so the email claims go there too.
    conformIdTokenClaims: false,
    cookies: { keys: ["e2e-oidc-cookie-key"] },
    findAccount: (_context, id) => ({
      accountId: id,
      claims: () => ({ sub: id, ...(accounts[id] ?? { email: `${id}@unknown.example`, email_verified: false }) }),
    }),
  });
  const server: Server = await new Promise((resolve) => {
    const listening = provider.listen(Number(issuer.port), issuer.hostname, () => resolve(listening));
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
