import pg from "pg";

/**
 * Whether the server at `url` is PGlite (PostgreSQL compiled to WebAssembly, lib/db/embedded.ts) rather than a
 * PostgreSQL server: PGlite serves every connection from one session, so what is per session on a server (a LISTEN,
 * the notifications it receives) is not per connection there. PGlite reports e.g. "PostgreSQL 18.6 (PGlite 0.5.14) on
 * wasm32-unknown-emscripten". Asked on a connection of its own, closed at once.
 */
export async function isPglite(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ version: string }>("SELECT version()");
    return /\bPGlite\b|emscripten/.test(rows[0]?.version ?? "");
  } finally {
    await client.end();
  }
}
