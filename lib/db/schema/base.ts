import { text, pgSchema, timestamp } from "drizzle-orm/pg-core";

/** The console's own tables live in the `console` schema, apart from the sandbox bank's. */
export const consoleSchema = pgSchema("console");

export const moment = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** The bank environment a row belongs to; every table keyed by environment names its column `environment`. */
export const environment = () => text("environment", { enum: ["sandbox", "production"] });
