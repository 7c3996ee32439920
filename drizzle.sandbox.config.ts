import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./sandbox/db/schema.ts",
  out: "./drizzle/sandbox",
  schemaFilter: ["sandbox"],
});
