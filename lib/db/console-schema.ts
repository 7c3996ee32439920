/**
 * The console's own tables, one file per domain under ./schema; drizzle (lib/db/console.ts) and drizzle-kit
 * (drizzle.console.config.ts) read them all from here.
 */
export { consoleSchema } from "./schema/base";
export * from "./schema/staff";
export * from "./schema/audit";
export * from "./schema/credentials";
export * from "./schema/bank-index";
export * from "./schema/reviews";
export * from "./schema/search";
export * from "./schema/approvals";
export * from "./schema/views";
export * from "./schema/bulk";
