/**
 * Which simulation made which wallet token. The bank answers a provisioning simulation with 202 and no body, so the
 * audit record of the run (`simulation.run`, target: the card) cannot name the token; the token names its card and
 * when it was created. The one rule, used by the simulations page's runs and by the token's History: a token was made
 * by the latest successful run on its card from `maxLagMs` before the token's `created_at` up to `skewMs` after it
 * (both stamps are to the second, and the record is written just before the bank is asked). Two runs on one card
 * within a second cannot be told apart; the later one is named. Client-safe.
 */

export const maxLagMs = 60_000;
export const skewMs = 1_000;

export interface RunRecord {
  id: number;
  at: string;
  targetId: string | null;
  outcome: string;
}

export interface TokenStamp {
  id: string;
  card_id: string;
  created_at: string;
}

/** The run that made `token`, from `runs` (any order; runs on other cards and failed runs are passed over). */
export function runOfToken<R extends RunRecord>(token: TokenStamp, runs: readonly R[]): R | null {
  const created = Date.parse(token.created_at);
  let found: R | null = null;
  for (const run of runs) {
    if (run.targetId !== token.card_id || run.outcome !== "succeeded") continue;
    const at = Date.parse(run.at);
    if (at > created + skewMs || at < created - maxLagMs) continue;
    if (!found || at > Date.parse(found.at) || (at === Date.parse(found.at) && run.id > found.id)) found = run;
  }
  return found;
}

/** Each run's token, by run id: for every token, its run (runOfToken); a run keeps the first token made after it. */
export function tokensOfRuns<R extends RunRecord, T extends TokenStamp>(runs: readonly R[], tokens: readonly T[]): Map<number, T> {
  const byRun = new Map<number, T>();
  const oldestFirst = [...tokens].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || a.id.localeCompare(b.id));
  for (const token of oldestFirst) {
    const run = runOfToken(token, runs);
    if (run && !byRun.has(run.id)) byRun.set(run.id, token);
  }
  return byRun;
}
