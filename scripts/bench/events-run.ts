import type { Page } from "playwright";
import type pg from "pg";
import { runOutcome, type KeptVersion } from "./events-outcome";
import { patchAtRate, sleep } from "./events-patches";
import { benchLog, sandboxBankAuthorization } from "./run";
import { percentile } from "./stats";

/** The running product bench:events measures: the bank, the console's database, and a signed-in page holding the live feed. */
export interface EventsStack {
  name: string;
  bankUrl: string;
  consoleUrl: string;
  consoleDb: pg.Client;
  page: Page;
  transfers: string[];
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

/** The receiver's answer times as the bank timed them (ms), per delivery attempt since `since`, and those not 200. */
async function receiverAnswers(stack: EventsStack, since: number) {
  const hooks = (
    (await (
      await fetch(`${stack.bankUrl}/webhook?page_size=1000&event=network_transfer.update`, { headers: { authorization: sandboxBankAuthorization } })
    ).json()) as {
      data: Array<{ id: string; url: string }>;
    }
  ).data;
  const hook = hooks.find((candidate) => candidate.url === `${stack.consoleUrl}/api/bank-events/sandbox`)!;
  const times: number[] = [];
  let notOk = 0;
  for (let next: string | undefined = `${stack.bankUrl}/webhook/${hook.id}/deliveries?page_size=1000`; next;) {
    const deliveries = (await (await fetch(next, { headers: { authorization: sandboxBankAuthorization } })).json()) as {
      data: Array<{ latency_ms: number; succeeded: boolean; attempted_at: string }>;
      page_next?: string;
    };
    for (const delivery of deliveries.data) {
      if (Date.parse(delivery.attempted_at) < since) continue;
      times.push(delivery.latency_ms);
      if (!delivery.succeeded) notOk++;
    }
    next = deliveries.page_next ?? undefined;
  }
  return { times, notOk };
}

/**
 * One run of `rate` changes a second for `seconds` at the bank, timed from each change's commit (or its PATCH's
 * sending) to the receiver, the index and the browser; what was lost or shown twice. `held`: commit → browser p99
 * under 250 ms with nothing lost, shown twice or failed.
 */
export async function measurePipeline(stack: EventsStack, options: { rate: number; seconds: number; warmupSeconds: number }) {
  const { name, consoleDb, page } = stack;
  const tag = `run_${Date.now()}`;
  benchLog(`${name}: ${options.warmupSeconds} s of warm-up, then ${options.rate * options.seconds} changes at ${options.rate}/s...`);
  const sent = await patchAtRate(stack.bankUrl, stack.transfers, { ...options, tag });
  const { changes, startedAt } = sent;
  benchLog(`${name}: sent in ${sent.sendSeconds.toFixed(1)} s; waiting for the index to settle...`);
  const lastSeqOf = new Map(changes.map((change) => [change.objectId, change.seq]));
  await until(
    async () => {
      const { rows } = await consoleDb.query(
        "SELECT id, (state->'userdata'->>'seq')::int AS seq FROM console.bank_objects WHERE environment = 'sandbox' AND resource = 'network_transfer' AND state->'userdata'->>'bench' = $1",
        [tag],
      );
      return rows.filter((object) => lastSeqOf.get(object.id) === object.seq).length === lastSeqOf.size;
    },
    "every transfer's last change in the index",
    60_000,
  ).catch((error: Error) => benchLog(error.message));
  await sleep(2000);

  const versions = (
    await consoleDb.query(
      `SELECT id::text AS id, object_id, (state->'userdata'->>'seq')::int AS seq, extract(epoch from seen_at) * 1000 AS seen,
         extract(epoch from (state->>'updated_at')::timestamptz) * 1000 AS changed
       FROM console.bank_object_versions WHERE environment = 'sandbox' AND state->'userdata'->>'bench' = $1`,
      [tag],
    )
  ).rows as KeptVersion[];
  const inbox = (
    await consoleDb.query(
      `SELECT object_id, extract(epoch from received_at) * 1000 AS received, deliveries FROM console.bank_event_inbox
       WHERE environment = 'sandbox' AND event = 'network_transfer.update' AND received_at >= to_timestamp($1 / 1000.0)`,
      [startedAt - 1000],
    )
  ).rows as Array<{ object_id: string; received: number; deliveries: number }>;
  const answers = await receiverAnswers(stack, startedAt);
  const received = await page.evaluate(() => (window as unknown as { received: Array<{ id: string; at: number }> }).received);
  const outcome = runOutcome({ changes, versions, inbox, received, startedAt });
  const p99 = percentile(outcome.timings.committed.browser, 99);
  return {
    ...outcome,
    ...options,
    sent,
    inbox,
    answers,
    p99,
    held: p99 < 250 && outcome.lost === 0 && outcome.shownTwice === 0 && outcome.versionsNotShown === 0 && sent.failures.length === 0,
  };
}

/** One run as the report's table and lines (the whole run, as `npm run bench:events` prints it). */
export function pipelineReport(run: Awaited<ReturnType<typeof measurePipeline>>, bankPlace: string): string[] {
  const { timings, sent, answers } = run;
  const p50max = (values: number[]) => (values.length ? `${percentile(values, 50).toFixed(0)}/${Math.max(...values).toFixed(0)}` : "-");
  benchLog(
    `from the commit, by second of the run, to the receiver | index | browser (p50/max ms):\n${[...run.bySecond]
      .map(([second, stages]) => `  ${second}: ${p50max(stages.receiver)} | ${p50max(stages.index)} | ${p50max(stages.browser)}`)
      .join("\n")}`,
  );
  const row = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  const cells = (values: number[]) => [`${percentile(values, 50).toFixed(0)} ms`, `${percentile(values, 99).toFixed(0)} ms`];
  const answersP99 = percentile(answers.times, 99);
  return [
    `The bank's data: ${bankPlace}.`,
    "",
    row(["to", "measured", "from the commit at the bank: p50", "p99", "from the PATCH sent: p50", "p99"]),
    row(["---", "---:", "---:", "---:", "---:", "---:"]),
    ...(
      [
        ["the receiver storing the notification", "receiver"],
        ["the index keeping the version", "index"],
        ["the browser receiving it over SSE", "browser"],
      ] as const
    ).map(([label, stage]) => row([label, timings.committed[stage].length, ...cells(timings.committed[stage]), ...cells(timings.sent[stage])])),
    "",
    `Target: p99 from the commit to the browser under 250 ms: **${run.p99 < 250 ? "met" : "missed"}**.`,
    "",
    `The receiver's answer as the bank timed it (${answers.times.length} deliveries, ${(answers.times.length / sent.sendSeconds).toFixed(0)}/s): ` +
      `p50 ${percentile(answers.times, 50)} ms, p99 **${answersP99} ms** (target < 50 ms: **${answersP99 < 50 ? "met" : "missed"}**), not 200: ${answers.notOk}.`,
    "",
    `Lost (a transfer's last change never in the index): **${run.lost}**. Versions kept but never shown in the browser: **${run.versionsNotShown}**. ` +
      `Shown twice: **${run.shownTwice}**; kept twice: **${run.keptTwice}**. Superseded (the bank changed the transfer again before its ` +
      `notification was fetched, so the index went straight to the newer state): ${run.superseded}. Failed PATCHes: ${sent.failures.length}` +
      `${sent.failures.length ? ` (first: ${sent.failures[0]})` : ""}. Notifications delivered more than once: ${run.inbox.filter((entry) => entry.deliveries > 1).length}.`,
  ];
}
