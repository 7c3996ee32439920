import { randomBytes } from "node:crypto";
import { SignJWT } from "jose";
import { tokenIssuer } from "../auth/tokens";

/** Audience of card UX toolkit access tokens (distinct from API bearer tokens). */
export const cardTokenAudience = "card-ux-toolkit";
export const cardTokenLifetimeSeconds = 3600;

/** A DPoP-bound access token for one card: the proof key's thumbprint in cnf.jkt (RFC 9449 §6.1). */
export async function signCardAccessToken(signingKey: Uint8Array, cardId: string, jkt: string, now: Date): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT({ cnf: { jkt } })
    .setProtectedHeader({ alg: "HS256", typ: "at+jwt" })
    .setIssuer(tokenIssuer)
    .setAudience(cardTokenAudience)
    .setSubject(cardId)
    .setJti(randomBytes(16).toString("base64url"))
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + cardTokenLifetimeSeconds)
    .sign(signingKey);
}
