import type { z } from "zod";

/**
 * One operation of the sandbox-only control API as the OpenAPI document describes it. sandbox/openapi.ts lists
 * these under the `sandbox` tag with `x-sandbox-only: true`; they are never part of lib/contract, from which the
 * console's client is generated. The schemas are the zod schemas the routes validate with, so the document
 * cannot drift from what the server accepts.
 */
export interface ControlOperation {
  method: "get" | "post" | "put" | "delete";
  /** OpenAPI path, with `{name}` for path parameters. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  body?: z.ZodType;
  response: { status: number; description: string; schema?: z.ZodType };
  /** Error answers beyond 400 and 401 (which every control operation documents), by status. */
  errors?: Record<number, string>;
}

/**
 * Each feature's module adds its operations here when loaded (one entry per method and path): sandbox/control/index.ts
 * loads every feature's module to mount it, and sandbox/openapi.ts loads that file, so the list is complete whenever
 * the document is built.
 */
export const controlOperations: ControlOperation[] = [];
