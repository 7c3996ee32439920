import { z } from "zod";
import { errorBody, operations, pathParameters, type Operation } from "@/lib/contract";

/** The version of the spec's payments interface this implementation follows. */
export const apiVersion = "1.18.982-g5c45cf24";

type JsonSchema = Record<string, unknown>;

/**
 * Converts one zod schema to JSON Schema 2020-12 (OpenAPI 3.1's dialect). Schemas with a meta id become named
 * components: their definitions are collected into `components` and references point there.
 */
function toSchema(schema: z.ZodType, components: Record<string, JsonSchema>, io: "input" | "output"): JsonSchema {
  const converted = z.toJSONSchema(schema, { io, target: "draft-2020-12", unrepresentable: "any" }) as JsonSchema;
  const text = JSON.stringify(converted).replaceAll('"#/$defs/', '"#/components/schemas/');
  const { $schema: _dialect, $defs, ...rest } = JSON.parse(text) as JsonSchema & { $defs?: Record<string, JsonSchema> };
  void _dialect;
  Object.assign(components, $defs ?? {});
  return rest;
}

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

function operationObject(operation: Operation, components: Record<string, JsonSchema>) {
  const parameters: JsonSchema[] = pathParameters(operation.path).map((name) => ({
    name,
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
  for (const [name, field] of Object.entries(operation.query?.shape ?? {}) as [string, z.ZodType][]) {
    const schema = toSchema(field, components, "input");
    parameters.push({
      name,
      in: "query",
      required: !field.safeParse(undefined).success,
      ...(typeof schema.description === "string" ? { description: schema.description } : {}),
      schema,
    });
  }
  const { status, schema } = operation.response;
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    tags: [operation.tag],
    parameters,
    ...(operation.body
      ? { requestBody: { required: true, content: { "application/json": { schema: toSchema(operation.body, components, "input") } } } }
      : {}),
    responses: {
      [String(status)]: schema
        ? { description: "Success", content: { "application/json": { schema: toSchema(schema, components, "output") } } }
        : { description: "Success (no body)" },
      "400": errorResponse("Invalid request: the message names the bad parameter or field"),
      "401": errorResponse("Missing, malformed or wrong credentials"),
      "404": errorResponse("No such object"),
      ...(operation.body ? { "413": errorResponse("Body too large"), "415": errorResponse("Body is not JSON") } : {}),
    },
  };
}

/** The OpenAPI 3.1 document of the API, generated from the contract the server validates with. */
export function buildOpenApiDocument(serverUrl: string) {
  const components: Record<string, JsonSchema> = {};
  toSchema(errorBody, components, "output");
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    (paths[operation.path] ??= {})[operation.method] = operationObject(operation, components);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Banking Platform API (sandbox bank)",
      version: apiVersion,
      description: "Stateful sandbox implementation of the banking API. Lists are newest first with keyset pagination.",
    },
    servers: [{ url: serverUrl }],
    security: [{ basicAuth: [] }, { bearerAuth: [] }],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        basicAuth: { type: "http", scheme: "basic", description: "API key id as username, key secret as password" },
        bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
      },
    },
  };
}
