import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from "node:crypto";

/**
 * Staff passwords are hashed with scrypt (node:crypto, no native addon) at OWASP's current parameters, N=2^17, r=8,
 * p=1. The stored form carries its own parameters, `scrypt$N$r$p$<salt base64>$<hash base64>`, so older hashes still
 * verify, and sign-in replaces them (needsRehash). docs/benchmarks.md has the cost per sign-in and under concurrency.
 */
const parameters = { N: 2 ** 17, r: 8, p: 1 } as const;
const keyLength = 32;
// scrypt needs 128 * N * r bytes: 128 MiB at these parameters, above node's default limit of 32 MiB.
const maxmem = 2 * 128 * parameters.N * parameters.r;

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password.normalize("NFKC"), salt, keyLength, { ...options, maxmem }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, parameters);
  return ["scrypt", parameters.N, parameters.r, parameters.p, salt.toString("base64"), key.toString("base64")].join("$");
}

/** True when `password` matches `stored`; a malformed or missing hash never matches. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = (stored ?? "").split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") {
    // Spend the same time as a real check so a missing user or SSO-only user is not told apart by timing.
    await scrypt(password, randomBytes(16), parameters);
    return false;
  }
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, "base64");
  const actual = await scrypt(password, Buffer.from(salt, "base64"), { N: Number(n), r: Number(r), p: Number(p) });
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** Whether `stored` was made with other parameters than new hashes get (then sign-in hashes the password again). */
export function needsRehash(stored: string): boolean {
  const [scheme, n, r, p] = stored.split("$");
  return scheme !== "scrypt" || Number(n) !== parameters.N || Number(r) !== parameters.r || Number(p) !== parameters.p;
}
