import { exportJWK, generateKeyPair, SignJWT } from "jose";

/** A valid DPoP proof (RFC 9449) for `POST htu`, signed with a fresh ES256 key: what a card toolkit would send. */
export async function dpopProof(htu: string): Promise<string> {
  const keys = await generateKeyPair("ES256");
  return new SignJWT({ htm: "POST", htu, jti: crypto.randomUUID() })
    .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: await exportJWK(keys.publicKey) })
    .setIssuedAt()
    .sign(keys.privateKey);
}
