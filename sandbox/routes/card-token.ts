import type { Hono } from "hono";
import { uxtAccessTokenBody } from "@/lib/contract";
import { cardTokenLifetimeSeconds, signCardAccessToken } from "../cards/access-token";
import { verifyDpopProof } from "../cards/dpop";
import type { SandboxContext } from "../context";
import { pathId, readJsonBody } from "../http/request";
import type { AppEnv } from "./app-env";
import { resourceSources } from "./resource-sources";
import { resourceJson } from "./resources";

/** POST /card/{id}/uxt_access_token: a DPoP-bound access token for the card UX toolkit. */
export function mountCardToken(app: Hono<AppEnv>, ctx: SandboxContext, signingKey: Uint8Array): void {
  app.post("/card/:id/uxt_access_token", async (c) => {
    const cardId = pathId(c);
    const body = await readJsonBody(c, uxtAccessTokenBody);
    await resourceJson(ctx, resourceSources.card, cardId);
    // The wall clock, not the sandbox clock: the client's proof (iat) and the toolkit checking the token's expiry
    // read their own real clocks, which an advanced sandbox clock would put a day apart.
    const now = new Date();
    const { jkt } = await verifyDpopProof(ctx.db, body.dpop, {
      method: "POST",
      url: `${ctx.baseUrl}/card/${encodeURIComponent(cardId)}/uxt_access_token`,
      now,
      iatWindowSeconds: ctx.settings.dpopIatWindowSeconds,
    });
    const accessToken = await signCardAccessToken(signingKey, cardId, jkt, now);
    return c.json({ access_token: accessToken, expires_in: cardTokenLifetimeSeconds, token_type: "DPoP" as const });
  });
}
