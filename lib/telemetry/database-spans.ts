import { SpanKind, SpanStatusCode, context, trace } from "@opentelemetry/api";
import type pg from "pg";

/**
 * Database queries as spans (docs/operations.md): one client span per query made inside a trace, naming the statement's
 * operation and its table, never its text, parameters or values. A query outside any trace (the index's polling, the
 * metrics scrape) and every query while traces are off runs untouched: the check is one lookup of the active span.
 */
const tracer = trace.getTracer("bank-console");

const operationPattern = /^\s*([A-Za-z]+)/;
/** The first table a statement names, schema-qualified or not: identifiers only, so never a literal or a parameter. */
const tablePattern = /\b(?:from|into|update|join)\s+((?:"[^"]+"|[A-Za-z_][\w$]*)(?:\.(?:"[^"]+"|[A-Za-z_][\w$]*))?)/i;

/** The operation (SELECT, INSERT, …) and table a statement names, when it names them. */
export function describeStatement(text: string): { operation?: string; table?: string } {
  const operation = operationPattern.exec(text)?.[1]?.toUpperCase();
  // Looked for outside string literals: `select 'from x'` names no table.
  const table = tablePattern.exec(text.replace(/'(?:[^']|'')*'/g, "''"))?.[1]?.replaceAll('"', "");
  return { ...(operation && { operation }), ...(table && { table }) };
}

const statementText = (query: unknown): string =>
  typeof query === "string" ? query : query && typeof query === "object" && "text" in query && typeof query.text === "string" ? query.text : "";

/** What failed, as PostgreSQL's SQLSTATE code: its message can quote the values (`Key (email)=(…) already exists`). */
const errorType = (error: unknown): string =>
  error && typeof error === "object" && "code" in error && typeof error.code === "string" ? error.code : "error";

type Query = (...args: unknown[]) => unknown;

/** `query` (a pool's or a client's) with a span around each call made inside a trace, when `traces` allows. */
function tracedQuery(query: Query, traces: (self: unknown) => boolean = () => true): Query {
  return function traced(this: unknown, ...args: unknown[]) {
    if (!trace.getSpan(context.active())?.isRecording() || !traces(this)) return query.apply(this, args);
    // A cursor or stream (a submittable) reports through events, not an answer: it runs untraced.
    if (args[0] && typeof args[0] === "object" && "submit" in args[0]) return query.apply(this, args);
    const { operation, table } = describeStatement(statementText(args[0]));
    const name = operation ? `${operation}${table ? ` ${table}` : ""}` : "postgresql query";
    const span = tracer.startSpan(name, {
      kind: SpanKind.CLIENT,
      attributes: { "db.system": "postgresql", ...(operation && { "db.operation.name": operation }), ...(table && { "db.collection.name": table }) },
    });
    const end = (error: unknown) => {
      if (error) {
        span.setAttribute("error.type", errorType(error));
        span.setStatus({ code: SpanStatusCode.ERROR, message: errorType(error) });
      }
      span.end();
    };
    const last = args.at(-1);
    if (typeof last === "function") {
      args[args.length - 1] = (error: unknown, ...rest: unknown[]) => {
        end(error);
        return (last as Query)(error, ...rest);
      };
      return query.apply(this, args);
    }
    return (query.apply(this, args) as Promise<unknown>).then(
      (result) => (end(undefined), result),
      (error: unknown) => {
        end(error);
        throw error;
      },
    );
  };
}

/**
 * Traces the pool's queries and those of the clients it hands out (transactions). The pool's own `query` checks out a
 * client with a callback and is traced once, where it is called: a span started there has the caller's trace, which
 * a client waiting in the pool's queue would not. A client's queries are traced only while a caller holds it: the
 * same client serves the pool's own `query` once released.
 */
export function traceDatabaseQueries(pool: pg.Pool): void {
  pool.query = tracedQuery(pool.query as Query) as typeof pool.query;
  const wrapped = new WeakSet<pg.PoolClient>();
  const held = new WeakSet<object>();
  const connect = pool.connect.bind(pool) as (callback?: Query) => Promise<pg.PoolClient> | undefined;
  const holdClient = (client: pg.PoolClient) => {
    if (!wrapped.has(client)) {
      client.query = tracedQuery(client.query as Query, (self) => held.has(self as object)) as typeof client.query;
      wrapped.add(client);
    }
    held.add(client);
    return client;
  };
  pool.on("release", (_error: unknown, client: pg.PoolClient) => held.delete(client));
  pool.connect = ((callback?: Query) => (callback ? connect(callback) : connect()!.then(holdClient))) as typeof pool.connect;
}
