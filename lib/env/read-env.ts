import { z } from "zod";

/** Thrown when the process environment does not satisfy a schema; the message names every bad variable. */
export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}\nSee .env.example for every variable and its default.`);
    this.name = "EnvError";
  }
}

/** Validates `source` (normally process.env) once; empty strings count as unset so defaults apply. */
export function readEnv<S extends z.ZodObject>(schema: S, source: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ""));
  const result = schema.safeParse(cleaned);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join(".") || "(environment)";
    const given = cleaned[String(issue.path[0])];
    return `${name}: ${issue.message}${given === undefined ? " (not set)" : ` (got ${JSON.stringify(given)})`}`;
  });
  throw new EnvError(problems);
}

/** For entry points: print the problems and stop, instead of a stack trace. */
export function readEnvOrExit<S extends z.ZodObject>(schema: S, source: NodeJS.ProcessEnv = process.env): z.infer<S> {
  try {
    return readEnv(schema, source);
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

export const port = (fallback: number) =>
  z.coerce
    .number({ message: "expected a TCP port number" })
    .int("expected an integer port")
    .min(1, "expected a port from 1 to 65535")
    .max(65535, "expected a port from 1 to 65535")
    .default(fallback);

export const postgresUrl = z.string().regex(/^postgres(ql)?:\/\//, "expected a PostgreSQL URL such as postgres://user@127.0.0.1:5432/dbname");
