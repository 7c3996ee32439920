/**
 * What bench:events (./events.ts) makes of one run's records: each measured change matched to its notification's
 * arrival at the receiver, the version the index kept, and the browser's receipt of that version; with what was lost,
 * superseded, kept or shown twice. Pure: the bench collects, this counts.
 */

export interface Change {
  seq: number;
  objectId: string;
  sentAt: number;
  /**
   * When the bank made it, as closely as can be known without being later than its commit: the `updated_at` it wrote
   * with the change (read back from the version the index kept), or the moment the PATCH was sent if that is later —
   * the bank writes times to the second (`YYYY-MM-DDTHH:MM:SSZ`), so `updated_at` alone is up to a second early and
   * made every latency look ~500 ms longer. Unknown for a change overtaken before its notification was fetched.
   */
  committedAt?: number;
}

/** A version the index kept for one of the run's changes (`seq` from its userdata), when first seen and its `updated_at`. */
export interface KeptVersion {
  id: string;
  object_id: string;
  seq: number;
  seen: number;
  changed: number;
}

export interface RunRecords {
  changes: Change[];
  versions: KeptVersion[];
  /** Inbox rows of the run: when the receiver stored a notification for an object. */
  inbox: Array<{ object_id: string; received: number }>;
  /** What the browser received over the live feed: a version's id and the time it arrived. */
  received: Array<{ id: string; at: number }>;
  startedAt: number;
}

type Timings = { receiver: number[]; index: number[]; browser: number[] };

const append = <K, V>(map: Map<K, V[]>, key: K, value: V) => map.set(key, [...(map.get(key) ?? []), value]);

/** Sets each change's `committedAt` from its kept version, then times and counts the run. */
export function runOutcome({ changes, versions, inbox, received, startedAt }: RunRecords) {
  const receivedAtByObject = new Map<string, number[]>();
  for (const entry of inbox) append(receivedAtByObject, entry.object_id, Number(entry.received));
  for (const times of receivedAtByObject.values()) times.sort((a, b) => a - b);
  const versionBySeq = new Map(versions.map((version) => [version.seq, version]));
  const browserTimes = new Map<string, number[]>();
  for (const entry of received) append(browserTimes, entry.id, entry.at);
  const lastSeqOf = new Map(changes.map((change) => [change.objectId, change.seq]));

  for (const change of changes) {
    const version = versionBySeq.get(change.seq);
    if (version) change.committedAt = Math.max(Number(version.changed), change.sentAt);
  }

  const origins = { sent: (change: Change) => change.sentAt, committed: (change: Change) => change.committedAt };
  const timings: Record<keyof typeof origins, Timings> = {
    sent: { receiver: [], index: [], browser: [] },
    committed: { receiver: [], index: [], browser: [] },
  };
  // From the commit, by second of the run and by stage: a stall shows as one bad second, a backlog as a ramp, and the
  // first stage where a second is bad is where it went wrong.
  const bySecond = new Map<number, Timings>();
  let superseded = 0;
  let lost = 0;
  for (const change of changes) {
    const arrival = receivedAtByObject.get(change.objectId)?.find((at) => at >= change.sentAt - 5);
    const version = versionBySeq.get(change.seq);
    if (!version) {
      // Fetched only after a newer change to the same transfer: the index (and browser) show the newer state.
      if (lastSeqOf.get(change.objectId) === change.seq) lost++;
      else superseded++;
    }
    const shown = version && browserTimes.get(version.id);
    for (const [origin, startOf] of Object.entries(origins) as Array<[keyof typeof origins, (change: Change) => number | undefined]>) {
      const start = startOf(change);
      if (start === undefined) continue;
      if (arrival !== undefined) timings[origin].receiver.push(arrival - start);
      if (version) timings[origin].index.push(Number(version.seen) - start);
      if (shown) timings[origin].browser.push(shown[0]! - start);
    }
    if (change.committedAt !== undefined) {
      const second = Math.floor((change.sentAt - startedAt) / 1000);
      const stages = bySecond.get(second) ?? { receiver: [], index: [], browser: [] };
      bySecond.set(second, stages);
      if (arrival !== undefined) stages.receiver.push(arrival - change.committedAt);
      if (version) stages.index.push(Number(version.seen) - change.committedAt);
      if (shown) stages.browser.push(shown[0]! - change.committedAt);
    }
  }
  return {
    timings,
    bySecond,
    lost,
    superseded,
    versionsNotShown: versions.filter((version) => !browserTimes.has(version.id)).length,
    shownTwice: [...browserTimes.values()].filter((times) => times.length > 1).length,
    keptTwice: versions.length - versionBySeq.size,
  };
}
