import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { registerOTel } from "@vercel/otel";
import { otlpTraceExporter, type TraceSettings } from "./exporter";

/**
 * Starts OpenTelemetry in this server process when a collector is configured (instrumentation.ts calls it once):
 * Next.js's spans for each request and route handler, and the console's own (lib/telemetry/spans.ts), exported
 * through one batch processor. Returns whether traces are on. The span processor is given explicitly: left to
 * "auto", @vercel/otel would add its own exporter reading the same variables, and every span would leave twice,
 * once with its queries.
 */
export function registerTelemetry(settings: TraceSettings & { OTEL_SERVICE_NAME: string }): boolean {
  const exporter = otlpTraceExporter(settings);
  if (!exporter) return false;
  // No instrumentation of outgoing HTTP: @vercel/otel's default one names each request by its whole URL (ids and
  // query), and the bank calls, the console's only outgoing traffic of note, have their own span (lib/telemetry/spans.ts).
  registerOTel({ serviceName: settings.OTEL_SERVICE_NAME, instrumentations: [], spanProcessors: [new BatchSpanProcessor(exporter)] });
  return true;
}
