import { z } from "zod";
import { environments } from "./environments";

/** What an admin submits in the credentials form; each message names its field. Secrets are never echoed back. */
export const credentialsInput = z
  .object({
    environment: z.enum(environments, { message: "environment: expected sandbox or production" }),
    baseUrl: z
      .url({ protocol: /^https?$/, message: "baseUrl: expected an http or https URL" })
      .max(2000, "baseUrl: at most 2000 characters")
      .transform((url) => url.replace(/\/+$/, "")),
    authType: z.enum(["basic", "bearer"], { message: "authType: expected basic or bearer" }),
    keyId: z.string().trim().max(500, "keyId: at most 500 characters").default(""),
    secret: z.string().max(4000, "secret: at most 4000 characters").default(""),
    token: z.string().trim().max(8000, "token: at most 8000 characters").default(""),
  })
  .superRefine((value, context) => {
    if (value.authType === "basic" && !value.keyId) context.addIssue({ code: "custom", path: ["keyId"], message: "keyId: required for an API key" });
    if (value.authType === "basic" && !value.secret)
      context.addIssue({ code: "custom", path: ["secret"], message: "secret: required for an API key" });
    if (value.authType === "bearer" && !value.token)
      context.addIssue({ code: "custom", path: ["token"], message: "token: required for a bearer token" });
  })
  .transform(({ environment, baseUrl, authType, keyId, secret, token }) => ({
    environment,
    baseUrl,
    auth: authType === "basic" ? { type: "basic" as const, keyId, secret } : { type: "bearer" as const, token },
  }));
