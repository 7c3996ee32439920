import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/db/console-schema.ts",
  out: "./drizzle/console",
  schemaFilter: ["console"],
});
