import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";

/** The one error type of the sandbox's HTTP layer: a status and a human-readable message for `{"error": ...}`. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = (message: string) => new ApiError(401, message, { "www-authenticate": 'Basic realm="sandbox bank", Bearer' });
export const notFound = (message: string) => new ApiError(404, message);

/** Writes `{"error": message}` with the error's status. */
export function errorResponse(c: Context, error: ApiError): Response {
  return c.json({ error: error.message }, error.status, error.headers);
}

/**
 * One line naming every problem of a zod validation, each prefixed with the field's path (`simulation.card_id: ...`).
 * `prefix` names where the value came from when the path alone would be ambiguous (a query vs a body).
 */
export function describeZodError(error: z.ZodError, prefix = ""): string {
  return error.issues
    .map((issue) => {
      const path = [prefix, ...issue.path.map(String)].filter(Boolean).join(".");
      if (issue.code === "unrecognized_keys") {
        const where = path ? ` in ${path}` : "";
        return `unknown field${issue.keys.length > 1 ? "s" : ""}${where}: ${issue.keys.join(", ")}`;
      }
      if (issue.code === "invalid_type" && /received undefined/.test(issue.message)) return `${path || "body"} is required`;
      // Messages written for this API already name their field; zod's defaults do not.
      if (!path) return issue.message;
      const alreadyNamed = issue.message.startsWith(path) || issue.message.startsWith(String(issue.path.at(-1)));
      return alreadyNamed ? issue.message : `${path}: ${issue.message}`;
    })
    .join("; ");
}
