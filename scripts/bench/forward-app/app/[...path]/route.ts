/**
 * The ceiling of `npm run bench:console`: a bare Next.js route handler that forwards the request to the sandbox bank
 * with its credentials and returns the answer as it came. No session, permission, validation, audit or masking: what
 * Next.js itself costs per forwarded request on this machine. Built and started by the benchmark only.
 */
const bank = process.env.FORWARD_TO ?? "http://127.0.0.1:4010";
const authorization = `Basic ${Buffer.from(`${process.env.BANK_API_KEY_ID}:${process.env.BANK_API_KEY_SECRET}`).toString("base64")}`;

export async function GET(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const answer = await fetch(`${bank}${url.pathname}${url.search}`, { headers: { authorization } });
  return new Response(await answer.text(), { status: answer.status, headers: { "content-type": "application/json" } });
}
