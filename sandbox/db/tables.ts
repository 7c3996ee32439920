import { pgSchema } from "drizzle-orm/pg-core";

/** The sandbox bank's tables live in the `sandbox` schema, apart from the console's. */
export const sandboxSchema = pgSchema("sandbox");
