import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-base";

/** The standard OpenTelemetry variables the console reads (validated in lib/env/schema.ts). */
export interface TraceSettings {
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;
  OTEL_EXPORTER_OTLP_HEADERS?: Record<string, string>;
}

/** Where spans go: the traces endpoint as given, else `<endpoint>/v1/traces`; null when traces are not configured. */
export function tracesUrl(settings: TraceSettings): string | null {
  if (settings.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return settings.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (!settings.OTEL_EXPORTER_OTLP_ENDPOINT) return null;
  return `${settings.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, "")}/v1/traces`;
}

/** A URL or path with its query, anywhere in a value: `http://bank/p?x`, `/api/search?q=…`, `GET /ach?status=…`. */
const pathWithQuery = /(\S*\/\S*?)\?\S*/g;

const stripQueries = (value: string) => value.replace(pathWithQuery, "$1");

/**
 * A span as it leaves the process: no query string in its name or in any attribute (a value holding a URL or a path
 * keeps it without its query), `url.query` dropped. Query values are filters staff typed (names, emails, account
 * numbers); the console's own spans never carry them, but Next.js's request spans carry the whole request target.
 */
export function withoutQueries(span: ReadableSpan): ReadableSpan {
  const attributes = Object.fromEntries(
    Object.entries(span.attributes)
      .filter(([key]) => key !== "url.query")
      .map(([key, value]) => [key, typeof value === "string" ? stripQueries(value) : value]),
  );
  // The span's other fields and methods read through from the original.
  return Object.create(span, { name: { value: stripQueries(span.name) }, attributes: { value: attributes } }) as ReadableSpan;
}

/** An exporter that hands `withoutQueries` of each span to `inner`. */
export function queryFreeExporter(inner: SpanExporter): SpanExporter {
  return {
    export: (spans, done) => inner.export(spans.map(withoutQueries), done),
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
}

/** OTLP over HTTP as JSON to the configured collector, queries stripped; null when traces are not configured. */
export function otlpTraceExporter(settings: TraceSettings): SpanExporter | null {
  const url = tracesUrl(settings);
  if (!url) return null;
  return queryFreeExporter(new OTLPTraceExporter({ url, headers: settings.OTEL_EXPORTER_OTLP_HEADERS ?? {} }));
}
