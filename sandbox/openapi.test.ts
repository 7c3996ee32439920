import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations, simulationTypes } from "@/lib/contract";
import { buildOpenApiDocument, openApiRequestsPerMinute } from "./openapi";
import { startSandbox, type RunningSandbox } from "./server";

type OperationEntry = { operationId: string; tags: string[]; "x-sandbox-only"?: boolean; responses: object };

describe("the generated OpenAPI document", () => {
  const document = buildOpenApiDocument("http://127.0.0.1:4010");

  it("is OpenAPI 3.1 with both security schemes", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.components.securitySchemes)).toEqual(["basicAuth", "bearerAuth"]);
    expect(document.components.schemas.Error).toMatchObject({ type: "object", required: ["error"] });
  });

  it("lists every operation of the contract with its success response", () => {
    for (const operation of operations) {
      const entry = (document.paths[operation.path] as Record<string, { operationId: string; responses: object }>)[operation.method];
      expect(entry?.operationId, `${operation.method} ${operation.path}`).toBe(operation.operationId);
      expect(Object.keys(entry!.responses)).toContain(String(operation.response.status));
    }
    const apiPaths = Object.entries(document.paths).filter(([path]) => !path.startsWith("/sandbox/"));
    expect(apiPaths.flatMap(([, entries]) => Object.keys(entries))).toHaveLength(operations.length);
  });

  it("describes the control API under a sandbox tag marked sandbox-only, on every /sandbox operation", () => {
    expect(document.tags).toEqual([{ name: "sandbox", description: expect.stringMatching(/^Sandbox only: /), "x-sandbox-only": true }]);
    const control = Object.entries(document.paths).filter(([path]) => path.startsWith("/sandbox/"));
    expect(control.map(([path]) => path)).toEqual(expect.arrayContaining(["/sandbox/faults", "/sandbox/faults/{id}"]));
    for (const [path, entries] of control) {
      for (const [method, entry] of Object.entries(entries as Record<string, OperationEntry>)) {
        expect(entry.tags, `${method} ${path}`).toEqual(["sandbox"]);
        expect(entry["x-sandbox-only"], `${method} ${path}`).toBe(true);
      }
    }
    for (const [path, entries] of Object.entries(document.paths).filter(([p]) => !p.startsWith("/sandbox/"))) {
      for (const entry of Object.values(entries as Record<string, OperationEntry>)) expect(entry.tags, path).not.toContain("sandbox");
    }
    const faults = document.paths["/sandbox/faults"] as Record<string, OperationEntry>;
    expect(Object.keys(faults).sort()).toEqual(["delete", "get", "post"]);
    expect(Object.keys(faults.post!.responses)).toEqual(["201", "400", "401"]);
  });

  it("leaves the control API out when it is off, as at a production bank", () => {
    const production = buildOpenApiDocument("http://127.0.0.1:4010", { control: false });
    expect(Object.keys(production.paths).filter((path) => path.startsWith("/sandbox"))).toEqual([]);
    expect(production.tags).toEqual([]);
  });

  it("describes the POST /simulation body as one schema per implemented type, discriminated by type", () => {
    const simulation = (document.paths["/simulation"] as { post: OperationEntry & { requestBody: { content: Record<string, { schema: unknown }> } } })
      .post;
    expect(simulation["x-sandbox-only"]).toBe(true);
    expect(simulation.requestBody.content["application/json"]!.schema).toEqual({
      oneOf: [{ $ref: "#/components/schemas/DigitalWalletTokenProvisioningSimulation" }],
      discriminator: {
        propertyName: "type",
        mapping: { "digital_wallet_token.provisioning": "#/components/schemas/DigitalWalletTokenProvisioningSimulation" },
      },
    });
    expect(simulationTypes).toEqual(["digital_wallet_token.provisioning"]);
    const provisioning = document.components.schemas.DigitalWalletTokenProvisioningSimulation as {
      properties: { type: unknown; simulation: { properties: Record<string, unknown>; required: string[]; additionalProperties: boolean } };
      required: string[];
    };
    expect(provisioning.required).toEqual(["type", "simulation"]);
    expect(provisioning.properties.type).toEqual({ const: "digital_wallet_token.provisioning" });
    expect(Object.keys(provisioning.properties.simulation.properties)).toEqual(["card_id", "fulfillment", "token_service_provider"]);
    expect(provisioning.properties.simulation.required).toEqual(["card_id"]);
    expect(provisioning.properties.simulation.additionalProperties).toBe(false);
  });

  it("names its licence", () => {
    expect(document.info.license).toEqual({ name: "Proprietary" });
  });

  it("only references components it defines", () => {
    const references = [...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/([A-Za-z]+)"/g)].map((m) => m[1]!);
    expect(references.length).toBeGreaterThan(0);
    for (const name of references) expect(document.components.schemas, name).toHaveProperty(name);
  });

  it("documents the ACH list's filters and page_size bounds as query parameters", () => {
    const list = (document.paths["/ach"] as { get: { parameters: { name: string; schema: Record<string, unknown> }[] } }).get;
    const names = list.parameters.map((parameter) => parameter.name);
    expect(names).toEqual(expect.arrayContaining(["page_cursor", "page_size", "from_date", "to_date", "status", "direction", "trace_suffix"]));
    expect(list.parameters.find((parameter) => parameter.name === "page_size")!.schema).toMatchObject({ minimum: 1, maximum: 1000 });
  });
});

describe("GET /openapi.json", () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: "empty" });
  }, 120_000);
  afterAll(async () => {
    await sandbox?.close();
  });

  it(`is served without credentials, then 429 with Retry-After past ${openApiRequestsPerMinute} a minute from one address`, async () => {
    const first = await fetch(`${sandbox.url}/openapi.json`);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await first.json()).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument(sandbox.url))));
    for (let i = 1; i < openApiRequestsPerMinute; i++) expect((await fetch(`${sandbox.url}/openapi.json`)).status).toBe(200);
    const refused = await fetch(`${sandbox.url}/openapi.json`);
    expect(refused.status).toBe(429);
    const seconds = Number(refused.headers.get("retry-after"));
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(await refused.json()).toEqual({ error: `Too many requests for /openapi.json; try again in ${seconds} s` });
    // The API itself is not limited by it.
    expect((await fetch(`${sandbox.url}/health`)).status).toBe(200);
  });
});
