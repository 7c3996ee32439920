import { describe, expect, it } from "vitest";
import { operations } from "@/lib/contract";
import { buildOpenApiDocument } from "./openapi";

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
    expect(Object.values(document.paths).flatMap((p) => Object.keys(p))).toHaveLength(operations.length);
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
