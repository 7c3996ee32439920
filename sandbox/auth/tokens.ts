import { SignJWT, jwtVerify } from "jose";

export const tokenIssuer = "sandbox-bank";
/** Audience of API bearer tokens; card access tokens use another, so neither can stand in for the other. */
export const apiAudience = "sandbox-bank-api";
const bearerLifetime = "365d";

/** A bearer token for an API key: an HS256 JWT whose subject is the key id. */
export async function signBearerToken(signingKey: Uint8Array, keyId: string): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer(tokenIssuer)
    .setAudience(apiAudience)
    .setSubject(keyId)
    .setIssuedAt()
    .setExpirationTime(bearerLifetime)
    .sign(signingKey);
}

/** The key id a bearer token was issued for, or a reason it is not acceptable. */
export async function verifyBearerToken(signingKey: Uint8Array, token: string): Promise<{ keyId: string } | { problem: string }> {
  try {
    const { payload } = await jwtVerify(token, signingKey, {
      algorithms: ["HS256"],
      issuer: tokenIssuer,
      audience: apiAudience,
      requiredClaims: ["sub", "exp"],
    });
    return { keyId: payload.sub as string };
  } catch (error) {
    const code = (error as { code?: string }).code;
    return { problem: code === "ERR_JWT_EXPIRED" ? "Bearer token has expired" : "Bearer token is not valid" };
  }
}
