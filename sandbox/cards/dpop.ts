import { EmbeddedJWK, calculateJwkThumbprint, decodeProtectedHeader, jwtVerify, type JWK } from "jose";
import { lt } from "drizzle-orm";
import type { SandboxDb } from "../db";
import { dpopProofs } from "../db/resources-schema";
import { badRequest } from "../http/errors";

/** Asymmetric JWS algorithms accepted for proofs (RFC 9449 §4.3: no "none", no MAC algorithms). */
const asymmetricAlgorithms = ["ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "EdDSA", "Ed25519"];
/** JWK members that only a private (or symmetric) key has. */
const privateMembers = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"];

export interface ProofExpectations {
  /** The request's method and URL (htm, htu); htu is compared without query and fragment. */
  method: string;
  url: string;
  now: Date;
  /** How far iat may be from now, in seconds, either way. */
  iatWindowSeconds: number;
}

const invalid = (reason: string) => badRequest(`Invalid DPoP proof: ${reason}`);

function withoutQueryAndFragment(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return undefined;
  }
}

/**
 * Validates a DPoP proof as RFC 9449 §4.3 asks, with jose doing the cryptography: a JWT with typ dpop+jwt, an
 * asymmetric alg, a public jwk in its header whose key verifies the signature, htm and htu matching this request,
 * an iat within the window, and a jti not seen before (kept until the proof could no longer be fresh, so a replay
 * inside the window is refused). Returns the JWK SHA-256 thumbprint the access token is bound to (cnf.jkt).
 */
export async function verifyDpopProof(db: SandboxDb, proof: string, expected: ProofExpectations): Promise<{ jkt: string }> {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(proof);
  } catch {
    throw invalid("not a JWT");
  }
  if (header.typ !== "dpop+jwt") throw invalid("typ must be dpop+jwt");
  if (!header.alg || !asymmetricAlgorithms.includes(header.alg)) {
    throw invalid(`alg must be an asymmetric algorithm (${asymmetricAlgorithms.join(", ")})`);
  }
  const jwk = header.jwk as JWK | undefined;
  if (!jwk || typeof jwk !== "object") throw invalid("the header must carry the public key as jwk");
  if (privateMembers.some((member) => member in jwk)) throw invalid("jwk must be a public key (it carries private members)");

  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(proof, EmbeddedJWK, { typ: "dpop+jwt", algorithms: [header.alg], currentDate: expected.now }));
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw invalid(code === "ERR_JWS_SIGNATURE_VERIFICATION_FAILED" ? "signature does not verify with its jwk" : "it cannot be verified");
  }
  if (payload.htm !== expected.method) throw invalid(`htm must be ${expected.method}`);
  const htu = typeof payload.htu === "string" ? withoutQueryAndFragment(payload.htu) : undefined;
  if (htu !== withoutQueryAndFragment(expected.url)) throw invalid(`htu must be ${withoutQueryAndFragment(expected.url)}`);
  if (typeof payload.iat !== "number") throw invalid("iat is required");
  const nowSeconds = Math.floor(expected.now.getTime() / 1000);
  if (Math.abs(nowSeconds - payload.iat) > expected.iatWindowSeconds) {
    throw invalid(`iat must be within ${expected.iatWindowSeconds} s of the current time`);
  }
  if (typeof payload.jti !== "string" || payload.jti.length === 0 || payload.jti.length > 256) {
    throw invalid("jti must be a non-empty string of at most 256 characters");
  }
  await rememberJti(db, payload.jti, new Date((payload.iat + expected.iatWindowSeconds) * 1000), expected.now);
  return { jkt: await calculateJwkThumbprint(jwk, "sha256") };
}

/** Records a jti; refuses one already recorded. Expired records are dropped on the way (indexed by expiry). */
async function rememberJti(db: SandboxDb, jti: string, expiresAt: Date, now: Date): Promise<void> {
  await db.delete(dpopProofs).where(lt(dpopProofs.expires_at, now));
  const inserted = await db.insert(dpopProofs).values({ jti, expires_at: expiresAt }).onConflictDoNothing().returning({ jti: dpopProofs.jti });
  if (inserted.length === 0) throw invalid("jti has been used before (replayed proof)");
}
