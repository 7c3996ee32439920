import type { MiddlewareHandler } from "hono";
import { unauthorized } from "../http/errors";
import type { ApiKeyStore } from "./api-keys";
import { verifyBearerToken } from "./tokens";

const howTo = "send Authorization: Basic base64(key_id:secret) or Authorization: Bearer <token>";

/**
 * Requires an API key on every request, as HTTP Basic (key id : secret) or as a bearer JWT the sandbox signed for
 * the key. Missing, malformed or wrong credentials are a 401 whose message says which.
 */
export function requireApiKey(keys: ApiKeyStore, signingKey: Uint8Array): MiddlewareHandler<{ Variables: { apiKeyId: string } }> {
  return async (c, next) => {
    const header = c.req.header("authorization");
    if (!header) throw unauthorized(`Missing credentials: ${howTo}`);
    const space = header.indexOf(" ");
    const scheme = space === -1 ? header : header.slice(0, space);
    const value = space === -1 ? "" : header.slice(space + 1).trim();
    let keyId: string;
    if (/^basic$/i.test(scheme)) {
      const decoded = /^[A-Za-z0-9+/]+={0,2}$/.test(value) ? Buffer.from(value, "base64").toString("utf8") : "";
      const colon = decoded.indexOf(":");
      if (colon <= 0) throw unauthorized("Malformed Basic credentials: expected base64(key_id:secret)");
      keyId = decoded.slice(0, colon);
      if (!(await keys.verify(keyId, decoded.slice(colon + 1)))) throw unauthorized("Invalid API key id or secret");
    } else if (/^bearer$/i.test(scheme)) {
      if (!value) throw unauthorized("Malformed Bearer credentials: the token is missing");
      const verified = await verifyBearerToken(signingKey, value);
      if ("problem" in verified) throw unauthorized(verified.problem);
      if (!(await keys.exists(verified.keyId))) throw unauthorized("Bearer token names an API key that does not exist");
      keyId = verified.keyId;
    } else {
      throw unauthorized(`Unsupported authorization scheme ${scheme}: ${howTo}`);
    }
    c.set("apiKeyId", keyId);
    await next();
  };
}
