import { SignJWT, decodeJwt, exportJWK, generateKeyPair, calculateJwkThumbprint, type JWK } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { cardAccessToken } from "@/lib/contract";
import { testDatabaseTargets } from "@/tests/support/databases";
import { sandboxOnDatabase } from "@/tests/support/sandbox-bank";
import { rows, tables } from "@/tests/support/sandbox-fixtures";

describe.each(testDatabaseTargets)("POST /card/{id}/uxt_access_token (DPoP) on $name", (target) => {
  const fixture = sandboxOnDatabase(target, { seed: "empty" });
  const { request } = fixture;
  let keys: CryptoKeyPair;
  let publicJwk: JWK;
  let htu: string;

  beforeAll(async () => {
    await fixture.sandbox.context.db.insert(tables.card).values(rows.card(1));
    keys = await generateKeyPair("ES256", { extractable: true });
    publicJwk = await exportJWK(keys.publicKey);
    htu = `${fixture.sandbox.url}/card/card_fixture1/uxt_access_token`;
  }, 120_000);

  let counter = 0;
  async function proof(over: { header?: Record<string, unknown>; claims?: Record<string, unknown>; key?: CryptoKey; alg?: string } = {}) {
    return new SignJWT({ htm: "POST", htu, jti: `jti-${Date.now()}-${counter++}`, ...over.claims })
      .setProtectedHeader({ alg: over.alg ?? "ES256", typ: "dpop+jwt", jwk: publicJwk, ...over.header } as never)
      .setIssuedAt(typeof over.claims?.iat === "number" ? over.claims.iat : Math.floor(Date.now() / 1000))
      .sign(over.key ?? keys.privateKey);
  }
  const post = (dpop: string, cardId = "card_fixture1") => request(`/card/${cardId}/uxt_access_token`, { method: "POST", json: { dpop } });
  const expectRefused = async (dpop: string, reason: string) => {
    const response = await post(dpop);
    expect(response.status).toBe(400);
    expect((response.body as { error: string }).error).toContain(reason);
  };

  it("returns a DPoP access token bound to the proof's key (cnf.jkt) for a valid proof", async () => {
    const response = await post(await proof());
    expect(response.status).toBe(200);
    const body = cardAccessToken.parse(response.body);
    expect(body).toMatchObject({ expires_in: 3600, token_type: "DPoP" });
    const claims = decodeJwt(body.access_token);
    expect(claims.cnf).toEqual({ jkt: await calculateJwkThumbprint(publicJwk, "sha256") });
    expect(claims.sub).toBe("card_fixture1");
    expect((claims.exp as number) - (claims.iat as number)).toBe(3600);
  });

  it("refuses a proof whose signature does not verify with its jwk", async () => {
    const other = await generateKeyPair("ES256");
    await expectRefused(await proof({ key: other.privateKey }), "signature does not verify");
  });

  it("refuses a proof for another URL (htu) or method (htm)", async () => {
    await expectRefused(await proof({ claims: { htu: `${fixture.sandbox.url}/card/card_other/uxt_access_token` } }), "htu must be");
    await expectRefused(await proof({ claims: { htu: "https://elsewhere.example/card/card_fixture1/uxt_access_token" } }), "htu must be");
    await expectRefused(await proof({ claims: { htm: "GET" } }), "htm must be POST");
  });

  it("ignores the query part of htu, as RFC 9449 says", async () => {
    expect((await post(await proof({ claims: { htu: `${htu}?x=1` } }))).status).toBe(200);
  });

  it("refuses a stale or future iat", async () => {
    const now = Math.floor(Date.now() / 1000);
    await expectRefused(await proof({ claims: { iat: now - 600 } }), "iat must be within");
    await expectRefused(await proof({ claims: { iat: now + 600 } }), "iat must be within");
  });

  it("refuses a replayed proof (same jti)", async () => {
    const once = await proof();
    expect((await post(once)).status).toBe(200);
    await expectRefused(once, "jti has been used before");
  });

  it("refuses a wrong typ, a symmetric alg, a missing jwk and a jwk with private parts", async () => {
    await expectRefused(await proof({ header: { typ: "JWT" } }), "typ must be dpop+jwt");
    const secret = new TextEncoder().encode("s".repeat(32));
    const hmac = await new SignJWT({ htm: "POST", htu, jti: "hs" })
      .setProtectedHeader({ alg: "HS256", typ: "dpop+jwt", jwk: publicJwk } as never)
      .setIssuedAt()
      .sign(secret);
    await expectRefused(hmac, "alg must be an asymmetric algorithm");
    await expectRefused(await proof({ header: { jwk: undefined } }), "public key as jwk");
    const privateJwk = await exportJWK(keys.privateKey);
    await expectRefused(await proof({ header: { jwk: privateJwk } }), "private members");
    await expectRefused("not-a-jwt", "not a JWT");
  });

  it("refuses a proof without jti, and a body without dpop", async () => {
    const noJti = await new SignJWT({ htm: "POST", htu })
      .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: publicJwk } as never)
      .setIssuedAt()
      .sign(keys.privateKey);
    await expectRefused(noJti, "jti must be");
    const missing = await request("/card/card_fixture1/uxt_access_token", { method: "POST", json: {} });
    expect(missing.status).toBe(400);
    expect((missing.body as { error: string }).error).toBe("dpop is required");
  });

  it("answers 404 for an unknown card", async () => {
    expect((await post(await proof(), "card_missing")).status).toBe(404);
  });
});
