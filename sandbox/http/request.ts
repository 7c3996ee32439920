import type { Context } from "hono";
import { z } from "zod";
import { opaqueId, parseJsonText } from "@/lib/contract";
import { ApiError, badRequest, describeZodError } from "./errors";

/** Largest request body accepted; every body of this API is small (userdata alone is capped at 1 KB). */
export const maxBodyBytes = 64 * 1024;

/**
 * Reads and validates a JSON body: 415 unless the body is declared application/json, 413 above `maxBytes`,
 * 400 for malformed JSON (naming the problem) or a body the schema refuses (naming each bad field).
 */
export async function readJsonBody<S extends z.ZodType>(c: Context, schema: S, maxBytes = maxBodyBytes): Promise<z.output<S>> {
  const contentType = c.req.header("content-type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(contentType)) {
    throw new ApiError(415, `Content-Type must be application/json${contentType ? ` (got ${contentType})` : ""}`);
  }
  const declared = Number(c.req.header("content-length"));
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const bytes = await readLimited(c.req.raw, maxBytes);
  if (bytes.length === 0) throw badRequest("Request body is empty; expected a JSON object");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw badRequest("Malformed JSON body: not valid UTF-8");
  }
  // Nesting depth and unstorable strings are refused before the schema runs (lib/contract/json-text.ts).
  const parsed = parseJsonText(text);
  if ("problem" in parsed) throw badRequest(`Malformed JSON body: ${parsed.problem}`);
  const result = schema.safeParse(parsed.value);
  if (!result.success) throw badRequest(describeZodError(result.error));
  return result.data;
}

const tooLarge = (maxBytes: number) => new ApiError(413, `Request body is larger than ${maxBytes} bytes`);

/** Reads the body, stopping as soon as it exceeds the limit (a chunked body declares no length). */
async function readLimited(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Validates a query string against a strict object schema: an unknown parameter is a 400 naming the allowed ones,
 * a repeated parameter a 400, a bad value a 400 naming the parameter. Returns the parsed values and the raw ones
 * (page_next carries the raw ones on).
 */
export function parseQuery<S extends z.ZodObject>(url: URL, schema: S): { query: z.output<S>; raw: Record<string, string> } {
  const raw: Record<string, string> = {};
  const allowed = schema.shape as Record<string, unknown>;
  for (const [name, value] of url.searchParams) {
    if (!Object.hasOwn(allowed, name)) {
      throw badRequest(`Unknown query parameter ${name}; allowed: ${Object.keys(allowed).join(", ")}`);
    }
    if (Object.hasOwn(raw, name)) throw badRequest(`Query parameter ${name} is given more than once`);
    raw[name] = value;
  }
  const result = schema.safeParse(raw);
  if (!result.success) throw badRequest(describeZodError(result.error));
  return { query: result.data, raw };
}

/** The `{id}` (or another parameter `name`) of a path, refused with a 400 when it is no id PostgreSQL could compare (see opaqueId). */
export function pathId(c: Context, name = "id"): string {
  const id = c.req.param(name) ?? "";
  const result = opaqueId.safeParse(id);
  if (!result.success) throw badRequest(describeZodError(result.error, name));
  return result.data;
}
