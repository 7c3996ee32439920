import { randomBytes } from "node:crypto";
import { decode, encode } from "next-auth/jwt";
import { describe, expect, it } from "vitest";
import { createTokenDecoder, maxDecodedChars, maxSessionTokenChars } from "./session-token";

const secret = randomBytes(32).toString("hex");
const salt = "authjs.session-token";

/** A decoder with the real Auth.js decode, counting how many cookies it was asked to decrypt. */
function countingDecoder() {
  let decrypted = 0;
  const decoder = createTokenDecoder({ secret: () => secret, decode: (params) => (decrypted++, decode(params)) });
  return { decoder, decrypted: () => decrypted };
}

/** A cookie as the console issues it (lib/auth/config.ts: the staff id and session id; Auth.js adds iat, exp, jti). */
const issuedCookie = () =>
  encode({
    token: { sub: `stf_${randomBytes(9).toString("base64url")}`, sid: randomBytes(32).toString("base64url") },
    secret,
    salt,
    maxAge: 8 * 3600,
  });

describe("the session cookie decoder", () => {
  it("reads a cookie the console issues, which is far below the length limit", async () => {
    const { decoder } = countingDecoder();
    const cookie = await issuedCookie();
    expect(cookie.length).toBeLessThan(maxSessionTokenChars / 2);
    expect(await decoder.decode(cookie, salt)).toMatchObject({ sub: expect.stringMatching(/^stf_/), sid: expect.any(String) });
  });

  it("refuses a cookie longer than any the console issues without decrypting or keeping it", async () => {
    const { decoder, decrypted } = countingDecoder();
    const forged = randomBytes(9 * 1024).toString("base64url"); // 12 KB
    expect(await decoder.decode(forged, salt)).toBeNull();
    expect(await decoder.decode("x".repeat(maxSessionTokenChars + 1), salt)).toBeNull();
    expect(decrypted()).toBe(0);
    expect(decoder.cached()).toEqual({ entries: 0, chars: 0 });
  });

  it("keeps what 10,000 different forged cookies leave within its size bound, and still reads a real one", async () => {
    const { decoder, decrypted } = countingDecoder();
    for (let sent = 0; sent < 10_000; sent++) {
      expect(await decoder.decode(randomBytes(750).toString("base64url"), salt)).toBeNull();
    }
    expect(decrypted()).toBe(10_000);
    expect(decoder.cached().chars).toBeLessThanOrEqual(maxDecodedChars);
    expect(decoder.cached().entries).toBeLessThan(10_000);
    expect(await decoder.decode(await issuedCookie(), salt)).toMatchObject({ sid: expect.any(String) });
  });
});
