import { readFileSync } from "node:fs";
import { sandboxBankAuthorization } from "../run";
import { sleep } from "./settings";

/**
 * The PostgreSQL server's main process, found from a backend's parent: its process tree holds every backend, so its
 * CPU around a run is the database's cost (other clients of the same server included).
 */
export async function postmasterPid(url: string): Promise<number | undefined> {
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    return Number(readFileSync(`/proc/${rows[0]!.pid}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);
  } catch {
    return undefined; // a server on another machine: its CPU is not measured
  } finally {
    await client.end();
  }
}

/**
 * New objects at the bank at `perSecond` (counterparties, through the sandbox's control API): each is one
 * `counterparty.create` notification to the console, and must end up in its index.
 */
export function bankChanges(sandboxUrl: string, perSecond: number) {
  const created: string[] = [];
  let failed = 0;
  let running = true;
  const done = (async () => {
    for (let next = Date.now(); running; next += 1000 / perSecond) {
      await sleep(Math.max(0, next - Date.now()));
      void fetch(`${sandboxUrl}/sandbox/counterparty`, {
        method: "POST",
        headers: { authorization: sandboxBankAuthorization, "content-type": "application/json" },
        body: JSON.stringify({ name: `Cluster bench ${created.length + failed}` }),
      })
        .then(async (answer) => (answer.status === 201 ? created.push(((await answer.json()) as { id: string }).id) : (failed += 1)))
        .catch(() => (failed += 1));
    }
  })();
  return {
    created,
    failed: () => failed,
    async stop() {
      running = false;
      await done;
      await sleep(500); // the last creations answer
    },
  };
}

/** The counts `notificationOutcomes` answers (each described there), which the faults run carries to the report. */
export interface NotificationOutcomes {
  acknowledged: number;
  lost: number;
  refused: number;
  paused: number;
  given_up: number;
  taken_again: number;
  unsettled: number;
  missing: number;
  indexed_twice: number;
  settledMs: number;
}

/**
 * What became of the bank's notifications from `since` on, once the bank has delivered them (no delivery `pending`)
 * and the shared inbox has settled (every row processed; a row claimed by the killed instance waits for its lease,
 * 60 s), or after two minutes: `lost` counts notifications the console acknowledged (2xx) with no inbox row for that
 * event and object processed after it; `refused`, delivery attempts the console did not acknowledge (the bank tries
 * them again); `paused`, deliveries held because their webhook went into `error` after too many refusals; `givenUp`,
 * rows settled as dead letters; `takenAgain`, rows claimed more than once (after a kill or a stop gave them back),
 * which the index records once (an unchanged object gets no new version); `indexedTwice`, created objects with more
 * than one version in the index (each is created once and never changed, so a second version is a notification
 * recorded twice).
 */
export async function notificationOutcomes(url: string, since: Date, created: string[]): Promise<NotificationOutcomes> {
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const started = Date.now();
    const unsettled = async () =>
      Number(
        (
          await client.query(
            `SELECT (SELECT count(*) FROM console.bank_event_inbox WHERE state <> 'processed')
                  + (SELECT count(*) FROM sandbox.webhook_deliveries WHERE state = 'pending') AS n`,
          )
        ).rows[0].n,
      );
    while ((await unsettled()) > 0 && Date.now() - started < 120_000) await sleep(500);
    const { rows } = await client.query(
      `SELECT
         (SELECT count(*) FROM sandbox.webhook_delivery_attempts a WHERE a.attempted_at >= $1 AND a.status_code BETWEEN 200 AND 299) AS acknowledged,
         (SELECT count(*) FROM sandbox.webhook_delivery_attempts a WHERE a.attempted_at >= $1 AND a.status_code BETWEEN 200 AND 299
            AND NOT EXISTS (SELECT 1 FROM console.bank_event_inbox i WHERE i.environment = 'sandbox' AND i.event = a.event
              AND i.object_id = a.object_id AND i.state = 'processed' AND i.processed_at >= a.attempted_at)) AS lost,
         (SELECT count(*) FROM sandbox.webhook_delivery_attempts a WHERE a.attempted_at >= $1
            AND (a.status_code IS NULL OR a.status_code NOT BETWEEN 200 AND 299)) AS refused,
         (SELECT count(*) FROM sandbox.webhook_deliveries WHERE state = 'paused') AS paused,
         (SELECT count(*) FROM console.bank_event_inbox WHERE received_at >= $1 AND outcome = 'dead_letter') AS given_up,
         (SELECT count(*) FROM console.bank_event_inbox WHERE received_at >= $1 AND attempts > 1) AS taken_again,
         (SELECT count(*) FROM console.bank_event_inbox WHERE state <> 'processed') AS unsettled,
         (SELECT count(*) FROM unnest($2::text[]) AS created(id)
            WHERE NOT EXISTS (SELECT 1 FROM console.bank_objects o WHERE o.environment = 'sandbox' AND o.id = created.id)) AS missing,
         (SELECT count(*) FROM (SELECT object_id FROM console.bank_object_versions WHERE environment = 'sandbox' AND object_id = ANY($2::text[])
            GROUP BY object_id HAVING count(*) > 1) AS twice) AS indexed_twice`,
      [since, created],
    );
    const row = rows[0] as Record<string, string>;
    return {
      ...Object.fromEntries(Object.entries(row).map(([key, value]) => [key, Number(value)])),
      settledMs: Date.now() - started,
    } as NotificationOutcomes;
  } finally {
    await client.end();
  }
}
