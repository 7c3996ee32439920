import { calculateJwkThumbprint, decodeProtectedHeader, EmbeddedJWK, jwtVerify, SignJWT, importJWK } from "jose";
import { describe, expect, it } from "vitest";
import { buildDpopProof, createDpopKeyPair, decodeJwtClaims, jwkThumbprint, publicJwk } from "./dpop-proof";

const htu = "http://127.0.0.1:4010/card/card_abc/uxt_access_token";

describe("DPoP proof builder", () => {
  it("makes an ES256 key pair whose private key cannot be exported", async () => {
    const keys = await createDpopKeyPair();
    expect(keys.privateKey.extractable).toBe(false);
    await expect(crypto.subtle.exportKey("jwk", keys.privateKey)).rejects.toThrow();
  });

  it("signs a proof that jose verifies with the key in its header, with the claims RFC 9449 asks for", async () => {
    const keys = await createDpopKeyPair();
    const now = new Date("2026-11-23T10:00:00Z");
    const proof = await buildDpopProof(keys, { htm: "POST", htu: `${htu}?ignored=1#frag` }, now, "jti-1");
    const header = decodeProtectedHeader(proof);
    expect(header).toMatchObject({ typ: "dpop+jwt", alg: "ES256", jwk: { kty: "EC", crv: "P-256" } });
    expect(Object.keys(header.jwk!).sort()).toEqual(["crv", "kty", "x", "y"]);
    const { payload } = await jwtVerify(proof, EmbeddedJWK, { typ: "dpop+jwt", algorithms: ["ES256"], currentDate: now });
    expect(payload).toEqual({ jti: "jti-1", htm: "POST", htu, iat: now.getTime() / 1000 });
  });

  it("gives each proof a fresh jti", async () => {
    const keys = await createDpopKeyPair();
    const [a, b] = await Promise.all([buildDpopProof(keys, { htm: "POST", htu }), buildDpopProof(keys, { htm: "POST", htu })]);
    expect(decodeJwtClaims(a).jti).not.toBe(decodeJwtClaims(b).jti);
  });

  it("fails verification when the proof is tampered with", async () => {
    const keys = await createDpopKeyPair();
    const proof = await buildDpopProof(keys, { htm: "POST", htu });
    const [header, , signature] = proof.split(".");
    const forged = `${header}.${Buffer.from(JSON.stringify({ htm: "POST", htu: "http://evil.test/x", iat: 1, jti: "x" })).toString("base64url")}.${signature}`;
    await expect(jwtVerify(forged, EmbeddedJWK)).rejects.toThrow();
  });

  it("computes the RFC 7638 thumbprint jose computes (the token's cnf.jkt)", async () => {
    const jwk = await publicJwk(await createDpopKeyPair());
    expect(await jwkThumbprint(jwk)).toBe(await calculateJwkThumbprint(jwk, "sha256"));
  });

  it("decodes a token's claims without verifying them", async () => {
    const key = await importJWK({ kty: "oct", k: Buffer.from("secret-secret-secret-secret-32b!").toString("base64url") }, "HS256");
    const token = await new SignJWT({ cnf: { jkt: "abc" }, sub: "card_1" }).setProtectedHeader({ alg: "HS256" }).sign(key);
    expect(decodeJwtClaims(token)).toEqual({ cnf: { jkt: "abc" }, sub: "card_1" });
    expect(() => decodeJwtClaims("nope")).toThrow("not a JWT");
  });
});
