import { text } from "drizzle-orm/pg-core";
import { consoleSchema, environment, moment } from "./base";

/** Bank credentials saved by an admin; `sealed_auth` is AES-256-GCM ciphertext (lib/credentials/seal.ts). */
export const bankCredentials = consoleSchema.table("bank_credentials", {
  environment: environment().primaryKey(),
  baseUrl: text("base_url").notNull(),
  authType: text("auth_type", { enum: ["basic", "bearer"] }).notNull(),
  sealedAuth: text("sealed_auth").notNull(),
  updatedAt: moment("updated_at").notNull().defaultNow(),
  updatedBy: text("updated_by").notNull(),
});
