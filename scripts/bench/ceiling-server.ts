/**
 * The ceiling for `GET /ach`: a bare node:http handler running the same keyset SQL through the same driver (`pg`)
 * and JSON.stringify-ing the rows. No framework, no validation, no auth, no formatting. Not a product: the bench
 * starts it to know how fast the sandbox bank could possibly be on this machine and this database.
 */
import http from "node:http";
import pg from "pg";

const databaseUrl = process.env.DATABASE_URL;
const port = Number(process.env.PORT ?? 0);
if (!databaseUrl) throw new Error("DATABASE_URL is required");

const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
const filterColumns = new Set(["account_id", "counterparty_id", "direction", "effective_date", "service", "status"]);

const server = http.createServer(async (request, response) => {
  const url = new URL(request.url ?? "/", "http://ceiling");
  const conditions: string[] = [];
  const values: unknown[] = [];
  for (const [name, value] of url.searchParams) {
    if (filterColumns.has(name)) {
      values.push(value);
      conditions.push(`"${name}" = $${values.length}`);
    } else if (name === "page_cursor") {
      values.push(value);
      conditions.push(`(created_at, id) < (SELECT created_at, id FROM sandbox.ach WHERE id = $${values.length})`);
    }
  }
  const pageSize = Number(url.searchParams.get("page_size") ?? 100);
  values.push(pageSize + 1);
  const where = conditions.length ? `WHERE ${conditions.join(" AND ")}` : "";
  const { rows } = await pool.query({
    text: `SELECT * FROM sandbox.ach ${where} ORDER BY created_at DESC, id DESC LIMIT $${values.length}`,
    values,
  });
  response.writeHead(200, { "content-type": "application/json" });
  response.end(JSON.stringify({ data: rows.slice(0, pageSize) }));
});

server.listen(port, "127.0.0.1", () => {
  const address = server.address();
  console.log(JSON.stringify({ port: typeof address === "object" && address ? address.port : port }));
});
process.on("SIGTERM", () => {
  server.close();
  void pool.end().then(() => process.exit(0));
});
