import { describe, expect, it } from "vitest";
import { consoleEnvSchema, sandboxEnvSchema } from "./schema";

// Settings added by the third security review (docs/security.md).

describe("security settings", () => {
  it("binds the sandbox bank to 127.0.0.1 even when the console is exposed on every interface", () => {
    expect(sandboxEnvSchema.parse({ HOST: "0.0.0.0" })).toMatchObject({ HOST: "0.0.0.0", SANDBOX_HOST: "127.0.0.1" });
    expect(sandboxEnvSchema.parse({ SANDBOX_HOST: "10.0.0.2" }).SANDBOX_HOST).toBe("10.0.0.2");
  });

  it("allows no private network for webhooks unless named, and refuses a value that is no CIDR list", () => {
    expect(sandboxEnvSchema.parse({}).SANDBOX_WEBHOOK_ALLOWED_NETWORKS).toEqual([]);
    expect(sandboxEnvSchema.parse({ SANDBOX_WEBHOOK_ALLOWED_NETWORKS: "127.0.0.0/8, ::1/128" }).SANDBOX_WEBHOOK_ALLOWED_NETWORKS).toEqual([
      "127.0.0.0/8",
      "::1/128",
    ]);
    expect(sandboxEnvSchema.safeParse({ SANDBOX_WEBHOOK_ALLOWED_NETWORKS: "localhost" }).error?.issues[0]?.message).toBe(
      "expected comma-separated networks in CIDR form, e.g. 127.0.0.0/8,::1/128",
    );
  });

  it("requires https for the production bank unless BANK_PRODUCTION_ALLOW_HTTP=on", () => {
    expect(consoleEnvSchema.parse({}).BANK_PRODUCTION_ALLOW_HTTP).toBe("off");
    expect(consoleEnvSchema.safeParse({ BANK_PRODUCTION_ALLOW_HTTP: "yes" }).success).toBe(false);
  });
});

describe("four-eyes on changes", () => {
  it("lets a change request wait 24 hours by default, and refuses an expiry that is not a positive number of hours", () => {
    expect(consoleEnvSchema.parse({}).APPROVAL_EXPIRY_HOURS).toBe(24);
    expect(consoleEnvSchema.parse({ APPROVAL_EXPIRY_HOURS: "0.5" }).APPROVAL_EXPIRY_HOURS).toBe(0.5);
    expect(consoleEnvSchema.safeParse({ APPROVAL_EXPIRY_HOURS: "0" }).error?.issues[0]?.message).toBe("expected a positive number of hours");
    expect(consoleEnvSchema.safeParse({ APPROVAL_EXPIRY_HOURS: "soon" }).error?.issues[0]?.message).toBe("expected a number of hours");
    expect(consoleEnvSchema.safeParse({ APPROVAL_EXPIRY_HOURS: "721" }).success).toBe(false);
  });
});

describe("OpenTelemetry traces", () => {
  it("are off by default, and read the collector's headers as name=value pairs with URL-encoded values", () => {
    expect(consoleEnvSchema.parse({})).toMatchObject({ OTEL_SERVICE_NAME: "bank-console" });
    expect(consoleEnvSchema.parse({}).OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
    expect(consoleEnvSchema.parse({ OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=a%2Cb, tenant=bank" }).OTEL_EXPORTER_OTLP_HEADERS).toEqual({
      "x-api-key": "a,b",
      tenant: "bank",
    });
  });

  it("refuses a collector that is no http URL, headers not in pairs, another protocol and a ratio past 1", () => {
    const problem = (source: Record<string, string>) => consoleEnvSchema.safeParse(source).error?.issues[0]?.message;
    expect(problem({ OTEL_EXPORTER_OTLP_ENDPOINT: "grpc://collector:4317" })).toBe("expected the collector's http or https base URL");
    expect(problem({ OTEL_EXPORTER_OTLP_HEADERS: "just-a-key" })).toBe("expected name=value pairs separated by commas");
    expect(problem({ OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toBe("expected http/json (the console exports OTLP over HTTP as JSON)");
    expect(problem({ OTEL_TRACES_SAMPLER_ARG: "1.5" })).toBe("expected a ratio from 0 to 1");
  });
});
