import type { HttpBindings } from "@hono/node-server";
import type { Handler } from "hono";
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { z } from "zod";
import { errorBody, operations, pathParameters, provisioningSimulation, simulationTypes, type Operation } from "@/lib/contract";
// Every control feature's module, each of which adds its operations to controlOperations when loaded.
import "./control";
import { controlOperations, type ControlOperation } from "./control/openapi-paths";
import { ApiError } from "./http/errors";

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

/**
 * Each implemented simulation type's `simulation` schema. The contract keeps `type` an open string (so that an
 * unknown type gets the spec's "Simulation not implemented" message), hence the `oneOf` is added here; the Record's
 * key type makes a new entry in `simulationTypes` a compile error until its schema is listed.
 */
const simulationSchemas: Record<(typeof simulationTypes)[number], z.ZodType> = {
  "digital_wallet_token.provisioning": provisioningSimulation,
};

/**
 * The `POST /simulation` body as one named schema per implemented type (`DigitalWalletTokenProvisioningSimulation`),
 * discriminated by `type`, so that a generated client has a class per type with its fields.
 */
function simulationBodySchema(components: Record<string, JsonSchema>): JsonSchema {
  const mapping: Record<string, string> = {};
  for (const [type, simulation] of Object.entries(simulationSchemas)) {
    const name = `${type.replace(/(?:^|[._])([a-z])/g, (_, letter: string) => letter.toUpperCase())}Simulation`;
    components[name] = {
      type: "object",
      description: `The body of POST /simulation for ${type}`,
      properties: { type: { const: type }, simulation: toSchema(simulation, components, "input") },
      required: ["type", "simulation"],
      additionalProperties: false,
    };
    mapping[type] = `#/components/schemas/${name}`;
  }
  return { oneOf: Object.values(mapping).map(($ref) => ({ $ref })), discriminator: { propertyName: "type", mapping } };
}

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
  const body =
    operation.operationId === "create_simulation"
      ? simulationBodySchema(components)
      : operation.body && toSchema(operation.body, components, "input");
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    tags: [operation.tag],
    ...(operation.sandboxOnly ? { "x-sandbox-only": true } : {}),
    parameters,
    ...(body ? { requestBody: { required: true, content: { "application/json": { schema: body } } } } : {}),
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

const sandboxTag = {
  name: "sandbox",
  description:
    "Sandbox only: the control API a test uses to put the sandbox bank into a known state (reset, snapshots, objects, transitions, clock, faults). A production bank has none of it; see docs/sandbox-control.md.",
  "x-sandbox-only": true,
};

/** A control API operation (sandbox/control/openapi-paths.ts), under the `sandbox` tag. */
function controlOperationObject(operation: ControlOperation, components: Record<string, JsonSchema>) {
  const { status, description, schema } = operation.response;
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    tags: [sandboxTag.name],
    "x-sandbox-only": true,
    parameters: pathParameters(operation.path).map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
    ...(operation.body
      ? { requestBody: { required: true, content: { "application/json": { schema: toSchema(operation.body, components, "input") } } } }
      : {}),
    responses: {
      [String(status)]: schema
        ? { description, content: { "application/json": { schema: toSchema(schema, components, "output") } } }
        : { description },
      "400": errorResponse("Invalid request: the message names the bad field"),
      "401": errorResponse("Missing, malformed or wrong credentials"),
      ...Object.fromEntries(Object.entries(operation.errors ?? {}).map(([code, text]) => [code, errorResponse(text)])),
    },
  };
}

/** The OpenAPI 3.1 document of the API, generated from the contract the server validates with. */
export function buildOpenApiDocument(serverUrl: string, { control = true }: { control?: boolean } = {}) {
  const components: Record<string, JsonSchema> = {};
  toSchema(errorBody, components, "output");
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    (paths[operation.path] ??= {})[operation.method] = operationObject(operation, components);
  }
  for (const operation of control ? controlOperations : []) {
    (paths[operation.path] ??= {})[operation.method] = controlOperationObject(operation, components);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Banking Platform API (sandbox bank)",
      version: apiVersion,
      description: "Stateful sandbox implementation of the banking API. Lists are newest first with keyset pagination.",
      // The project is not published under an open licence (package.json is private, no LICENSE file).
      license: { name: "Proprietary" },
    },
    servers: [{ url: serverUrl }],
    security: [{ basicAuth: [] }, { bearerAuth: [] }],
    tags: control ? [sandboxTag] : [],
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

/** Requests for /openapi.json one client address may make per minute: plenty for tools and generators, not a flood. */
export const openApiRequestsPerMinute = 60;

/**
 * GET /openapi.json without credentials, as real providers, stripe-mock and Prism serve theirs, rate-limited per
 * client address in this process's memory (behind a proxy every client shares the proxy's address). The document is
 * built once; without the control API (SANDBOX_CONTROL=off) it describes none of it, as at a production bank.
 */
export function serveOpenApiDocument(serverUrl: string, options: { control: boolean }): Handler {
  const document = JSON.stringify(buildOpenApiDocument(serverUrl, options));
  const limiter = new RateLimiterMemory({ points: openApiRequestsPerMinute, duration: 60 });
  return async (c) => {
    const address = (c.env as Partial<HttpBindings> | undefined)?.incoming?.socket.remoteAddress ?? "unknown";
    try {
      await limiter.consume(address);
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      const seconds = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
      throw new ApiError(429, `Too many requests for /openapi.json; try again in ${seconds} s`, { "retry-after": String(seconds) });
    }
    return c.body(document, 200, { "content-type": "application/json; charset=utf-8" });
  };
}
