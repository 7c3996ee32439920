/**
 * DPoP proofs (RFC 9449) made in the browser with WebCrypto: an ES256 key pair whose private key cannot be exported,
 * so the card UX toolkit token it binds can only be used from the page that made it. The console forwards the proof
 * and never sees a private key. Pure WebCrypto, so the same code runs in the unit tests (Node's globalThis.crypto).
 */

const encoder = new TextEncoder();

export function base64url(bytes: Uint8Array | ArrayBuffer): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let binary = "";
  for (const byte of view) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const base64urlJson = (value: unknown) => base64url(encoder.encode(JSON.stringify(value)));

/** A P-256 key pair for ES256; the private key is not extractable. */
export function createDpopKeyPair(): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]);
}

/** The public key as the proof's header carries it: only the public members, in a fixed order. */
export async function publicJwk(keys: CryptoKeyPair): Promise<{ kty: string; crv: string; x: string; y: string }> {
  const { kty, crv, x, y } = await crypto.subtle.exportKey("jwk", keys.publicKey);
  return { kty: kty!, crv: crv!, x: x!, y: y! };
}

/** RFC 7638 SHA-256 thumbprint of an EC public key: what the bank binds the token to (`cnf.jkt`). */
export async function jwkThumbprint(jwk: { kty: string; crv: string; x: string; y: string }): Promise<string> {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return base64url(await crypto.subtle.digest("SHA-256", encoder.encode(canonical)));
}

/**
 * A signed DPoP proof for one request: header `typ: dpop+jwt`, `alg: ES256` and the public `jwk`; claims `htm`, `htu`
 * (the bank's URL, without query or fragment), `iat` and a fresh `jti`. WebCrypto's ECDSA signature is already the
 * raw r‖s form JWS wants.
 */
export async function buildDpopProof(
  keys: CryptoKeyPair,
  request: { htm: string; htu: string },
  now = new Date(),
  jti: string = crypto.randomUUID(),
): Promise<string> {
  const url = new URL(request.htu);
  const header = { typ: "dpop+jwt", alg: "ES256", jwk: await publicJwk(keys) };
  const claims = { jti, htm: request.htm, htu: `${url.origin}${url.pathname}`, iat: Math.floor(now.getTime() / 1000) };
  const signingInput = `${base64urlJson(header)}.${base64urlJson(claims)}`;
  const signature = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, keys.privateKey, encoder.encode(signingInput));
  return `${signingInput}.${base64url(signature)}`;
}

/** The claims of a JWT, decoded and NOT verified (for showing what the bank issued). */
export function decodeJwtClaims(token: string): Record<string, unknown> {
  const payload = token.split(".")[1];
  if (!payload) throw new Error("not a JWT");
  const binary = atob(payload.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
}
