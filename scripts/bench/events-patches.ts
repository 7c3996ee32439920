import http from "node:http";
import type { Change } from "./events-outcome";
import { sandboxBankAuthorization } from "./run";

export const now = () => performance.timeOrigin + performance.now();
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The load's PATCHes over kept connections with node:http. The bench shares the machine's two cores with what it
 * measures, and fetch (undici) cost it about a quarter of a core at 200 requests a second (measured with top): CPU a real
 * bank's clients would not take from the bank and the console.
 */
const loadAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });
function sendPatch(url: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: "PATCH",
        agent: loadAgent,
        headers: { authorization: sandboxBankAuthorization, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () => resolve({ status: answer.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        answer.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** Every network transfer of the bank's demo set: the PATCHes are spread over them. */
export async function networkTransfers(bankUrl: string): Promise<string[]> {
  const page = (await (
    await fetch(`${bankUrl}/network_transfer?page_size=1000`, { headers: { authorization: sandboxBankAuthorization } })
  ).json()) as {
    data: Array<{ id: string }>;
  };
  return page.data.map((transfer) => transfer.id);
}

export interface PatchRun {
  /** The measured changes (the warm-up's are not), each with when its PATCH was sent. */
  changes: Change[];
  failures: string[];
  /** From sending each measured PATCH to its answer, ms (the agent's queue included: a bank that falls behind shows here). */
  answerMs: number[];
  startedAt: number;
  sendSeconds: number;
}

/**
 * `rate` PATCHes a second of a transfer's userdata (`{bench: tag, seq}`, numbered) for `seconds`, after `warmupSeconds`
 * of the same load tagged `<tag>_warmup` and not measured, each due at its time whatever the earlier ones' answers.
 */
export async function patchAtRate(
  bankUrl: string,
  transfers: string[],
  options: { rate: number; seconds: number; warmupSeconds: number; tag: string },
) {
  const { rate, seconds, warmupSeconds, tag } = options;
  const run: PatchRun = { changes: [], failures: [], answerMs: [], startedAt: now() + warmupSeconds * 1000, sendSeconds: 0 };
  const inFlight: Promise<void>[] = [];
  const patch = (objectId: string, userdata: Record<string, unknown>, seq: number, measured: boolean) => {
    const sentAt = now();
    inFlight.push(
      sendPatch(`${bankUrl}/network_transfer/${objectId}`, JSON.stringify({ userdata })).then(
        ({ status, body }) => {
          if (status !== 200) run.failures.push(`${seq}: HTTP ${status} ${body}`);
          if (measured) run.answerMs.push(now() - sentAt);
        },
        (error: unknown) => void run.failures.push(`${seq}: ${error instanceof Error ? error.message : error}`),
      ),
    );
  };
  for (let seq = -warmupSeconds * rate; seq < rate * seconds; seq++) {
    const wait = run.startedAt + (seq * 1000) / rate - now();
    if (wait > 1) await sleep(wait);
    const objectId = transfers[((seq % transfers.length) + transfers.length) % transfers.length]!;
    if (seq < 0) {
      patch(objectId, { bench: `${tag}_warmup`, seq }, seq, false);
      continue;
    }
    run.changes.push({ seq, objectId, sentAt: now() });
    patch(objectId, { bench: tag, seq }, seq, true);
  }
  await Promise.all(inFlight);
  run.sendSeconds = (now() - run.startedAt) / 1000;
  return run;
}
