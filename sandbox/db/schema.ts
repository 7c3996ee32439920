/** Every table of the sandbox bank (drizzle-kit reads this barrel to generate `drizzle/sandbox`). */
export * from "./tables";
export * from "./resources-schema";
export * from "./webhook-schema";
export * from "./clock-schema";
