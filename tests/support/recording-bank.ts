import { answerJson, startLocalServer, type LocalServer, type ReceivedRequest } from "@/tests/support/local-server";

/**
 * A recording hop in front of the real sandbox bank, for the proxy's tests: every request is recorded (so a test can
 * prove exactly what the console sent, or that bad input sent nothing) and forwarded unchanged; the bank's answer
 * comes back unchanged. `failNext` answers the next matching request with a failure instead of forwarding it: the one
 * bank failure the sandbox bank cannot be asked for (an outage in the middle of an otherwise valid change).
 */
export interface RecordingBank extends LocalServer {
  /** Where requests are forwarded: the sandbox bank, set once it is listening (it must know this hop's URL first). */
  forwardTo(url: string): void;
  failNext(method: string, path: string, status: number): void;
  /**
   * Adds `fields` to every object the bank answers for paths starting with `pathPrefix` (one object, or each item of a
   * page), as a production bank may add fields the contract does not name yet. Returns the function that stops it.
   */
  addFields(pathPrefix: string, fields: Record<string, unknown>): () => void;
}

const hopByHop = new Set(["host", "connection", "content-length", "transfer-encoding", "keep-alive"]);

export async function startRecordingBank(): Promise<RecordingBank> {
  let target: string | undefined;
  const failures: Array<{ method: string; path: string; status: number }> = [];
  const additions: Array<{ pathPrefix: string; fields: Record<string, unknown> }> = [];

  function withAdditions(path: string, body: string): string {
    const matching = additions.filter((addition) => path.startsWith(addition.pathPrefix));
    if (matching.length === 0) return body;
    const fields = Object.assign({}, ...matching.map((addition) => addition.fields)) as Record<string, unknown>;
    const answer = JSON.parse(body) as Record<string, unknown> & { data?: Array<Record<string, unknown>> };
    return JSON.stringify(
      Array.isArray(answer.data) ? { ...answer, data: answer.data.map((item) => ({ ...item, ...fields })) } : { ...answer, ...fields },
    );
  }

  async function forward(request: ReceivedRequest): Promise<{ status: number; contentType: string | null; body: string }> {
    if (!target) throw new Error("the recording bank has nowhere to forward to yet");
    const headers = Object.entries(request.headers).flatMap(([name, value]) =>
      hopByHop.has(name) || value === undefined ? [] : [[name, Array.isArray(value) ? value.join(", ") : value] as [string, string]],
    );
    const answer = await fetch(`${target}${request.url}`, { method: request.method, headers, body: request.body === "" ? undefined : request.body });
    return { status: answer.status, contentType: answer.headers.get("content-type"), body: await answer.text() };
  }

  const server = await startLocalServer((request, response) => {
    const path = new URL(request.url, "http://bank.test").pathname;
    const failure = failures.findIndex((candidate) => candidate.method === request.method && candidate.path === path);
    if (failure >= 0) {
      const { status } = failures.splice(failure, 1)[0]!;
      return answerJson(response, status, { error: "injected failure: the bank is unavailable" });
    }
    forward(request).then(
      (answer) => {
        response.writeHead(answer.status, answer.contentType ? { "content-type": answer.contentType } : {});
        response.end(answer.status === 200 ? withAdditions(path, answer.body) : answer.body);
      },
      (error: unknown) => answerJson(response, 599, { error: `the recording bank could not forward: ${String(error)}` }),
    );
  });
  return {
    ...server,
    forwardTo: (url) => {
      target = url;
    },
    failNext: (method, path, status) => {
      failures.push({ method, path, status });
    },
    addFields: (pathPrefix, fields) => {
      const addition = { pathPrefix, fields };
      additions.push(addition);
      return () => void additions.splice(additions.indexOf(addition), 1);
    },
  };
}
