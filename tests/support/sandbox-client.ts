/** A tiny HTTP client for the sandbox's tests: real requests with the given credentials. */
export function sandboxClient(baseUrl: string, keyId: string, secret: string) {
  const authorization = `Basic ${Buffer.from(`${keyId}:${secret}`).toString("base64")}`;
  return async function request(path: string, init: RequestInit & { json?: unknown } = {}) {
    const headers = new Headers(init.headers);
    if (!headers.has("authorization")) headers.set("authorization", authorization);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(init.json);
    }
    const response = await fetch(path.startsWith("http") ? path : `${baseUrl}${path}`, { ...init, headers, body });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: text ? (JSON.parse(text) as unknown) : undefined };
  };
}

export const demoKey = { id: "key_test_demo", secret: "test-demo-secret-0123456789" };
