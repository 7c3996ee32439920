import { SpanKind, SpanStatusCode, trace, type Span } from "@opentelemetry/api";
import { operations } from "@/lib/contract/operations";

/**
 * The console's own spans (docs/operations.md): bank calls and index worker batches; Next.js adds the incoming request
 * and the route handler around them. With no tracer provider registered (traces not configured, lib/telemetry/register.ts)
 * the API's tracer is a no-op: a span costs a function call and nothing is kept.
 */
const tracer = trace.getTracer("bank-console");

/** The contract's path of each operation, `{id}` where the id goes: what a span names instead of the path it was sent to. */
const templates = new Map(operations.map((operation) => [operation.operationId, operation.path]));

export interface TracedBankCall {
  operation: string;
  method: string;
  environment: string;
  /** The environment's breaker as the call starts (lib/bank/circuit.ts). */
  circuitState: string;
}

/** A bank failure's status, when the bank answered one (the errors of lib/bank/errors.ts carry it). */
function failureStatus(error: unknown): number | undefined {
  return error && typeof error === "object" && "status" in error && typeof error.status === "number" ? error.status : undefined;
}

/** What failed, in the words of lib/bank/errors.ts (`timeout`, `server_error`, …); `circuit_open` when nothing was sent. */
function failureKind(error: unknown): string {
  if (error instanceof Error && error.name === "BankCircuitOpenError") return "circuit_open";
  if (error && typeof error === "object" && "kind" in error && typeof error.kind === "string") return error.kind;
  return error instanceof Error ? error.name : "error";
}

/**
 * One bank call (its retries included) as a client span. It names the operation and its path template, never the path
 * it was sent to nor its query: ids and filter values (names, emails, account numbers) stay out of every attribute.
 */
export async function traceBankCall<T>(call: TracedBankCall, send: () => Promise<T>): Promise<T> {
  const template = templates.get(call.operation);
  const name = `bank ${call.method} ${template ?? call.operation}`;
  return tracer.startActiveSpan(name, { kind: SpanKind.CLIENT }, async (span: Span) => {
    span.setAttributes({
      "http.request.method": call.method,
      "bank.operation": call.operation,
      "bank.environment": call.environment,
      "bank.circuit.state": call.circuitState,
      ...(template && { "url.template": template }),
    });
    try {
      const answer = await send();
      // The transport's answer (lib/bank/transport.ts): its status and how many requests it took.
      const { status, attempts } = (answer ?? {}) as { status?: unknown; attempts?: unknown };
      if (typeof status === "number") span.setAttribute("http.response.status_code", status);
      if (typeof attempts === "number") span.setAttribute("bank.attempts", attempts);
      return answer;
    } catch (error) {
      const kind = failureKind(error);
      const status = failureStatus(error);
      // A call the breaker refused has no answer: its 503 is the console's, not the bank's.
      if (status !== undefined && kind !== "circuit_open") span.setAttribute("http.response.status_code", status);
      span.setAttribute("error.type", kind);
      span.setStatus({ code: SpanStatusCode.ERROR, message: kind });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** One round of the index worker (lib/index/worker.ts): the bank fetches it makes are its children. */
export async function traceIndexBatch<T>(rows: number, work: () => Promise<T>): Promise<T> {
  return tracer.startActiveSpan("index worker batch", { kind: SpanKind.INTERNAL, attributes: { "index.batch.rows": rows } }, async (span: Span) => {
    try {
      return await work();
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: failureKind(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}
