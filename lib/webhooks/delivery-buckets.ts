/**
 * The delivery chart's buckets: sized to the time the shown attempts span, so a page of attempts made within seconds
 * reads as seconds and one spread over a day reads as hours, never as one bar or hundreds of slivers. Client-safe
 * (no zod, no server code): the chart on the webhook page uses it.
 */

export interface DeliveryPoint {
  attempted_at: string;
  succeeded: boolean;
}

export interface Bucket {
  /** Start of the bucket, ISO 8601 UTC. */
  start: string;
  /** The axis label: as fine as the bucket size needs (UTC). */
  label: string;
  delivered: number;
  failed: number;
}

export interface DeliveryBuckets {
  /**
   * Oldest first, every bucket from the first attempt's to the last one's, empty ones included (gaps show); at least
   * `minBuckets`, the extra ones before the first attempt.
   */
  buckets: Bucket[];
  /** Bucket size in milliseconds, and in words ("10 s", "5 min", "1 h", "1 day"). */
  sizeMs: number;
  sizeLabel: string;
  delivered: number;
  failed: number;
  /** First and last attempt shown (ISO), null when there is none. */
  from: string | null;
  to: string | null;
}

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;
const day = 24 * hour;
/** The sizes a bucket may have, smallest first: round numbers a reader counts in. */
export const bucketSizes: ReadonlyArray<{ ms: number; label: string }> = [
  { ms: second, label: "1 s" },
  { ms: 5 * second, label: "5 s" },
  { ms: 10 * second, label: "10 s" },
  { ms: 30 * second, label: "30 s" },
  { ms: minute, label: "1 min" },
  { ms: 5 * minute, label: "5 min" },
  { ms: 15 * minute, label: "15 min" },
  { ms: 30 * minute, label: "30 min" },
  { ms: hour, label: "1 h" },
  { ms: 3 * hour, label: "3 h" },
  { ms: 6 * hour, label: "6 h" },
  { ms: 12 * hour, label: "12 h" },
  { ms: day, label: "1 day" },
  { ms: 7 * day, label: "7 days" },
];
/** At most this many bars: enough to see a pattern, few enough to read each. */
export const maxBuckets = 30;
/**
 * At least this many: a burst within one bucket is drawn as one bar among empty ones before it (the time leading up to
 * the newest attempt), not as one bar across the whole chart.
 */
export const minBuckets = 12;

const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A bucket's start as its label: seconds for sizes under a minute, minutes under a day, the date beyond (UTC). */
function labelOf(start: number, sizeMs: number, spansDays: boolean): string {
  const iso = new Date(start).toISOString();
  const date = `${months[Number(iso.slice(5, 7)) - 1]} ${Number(iso.slice(8, 10))}`;
  if (sizeMs >= day) return date;
  const time = sizeMs < minute ? iso.slice(11, 19) : iso.slice(11, 16);
  return spansDays ? `${date} ${time}` : time;
}

/** The smallest size that covers `spanMs` in at most `maxBuckets` bars. */
export function bucketSizeFor(spanMs: number): { ms: number; label: string } {
  return bucketSizes.find((size) => Math.floor(spanMs / size.ms) + 1 <= maxBuckets) ?? bucketSizes.at(-1)!;
}

/** Counts `deliveries` (any order) into buckets sized to the time they span. */
export function deliveryBuckets(deliveries: readonly DeliveryPoint[]): DeliveryBuckets {
  const times = deliveries.map((delivery) => Date.parse(delivery.attempted_at)).filter((time) => Number.isFinite(time));
  const delivered = deliveries.filter((delivery) => delivery.succeeded).length;
  const failed = deliveries.length - delivered;
  if (times.length === 0) {
    return { buckets: [], sizeMs: bucketSizes[0]!.ms, sizeLabel: bucketSizes[0]!.label, delivered, failed, from: null, to: null };
  }
  const first = Math.min(...times);
  const last = Math.max(...times);
  const size = bucketSizeFor(last - first);
  const lastStart = Math.floor(last / size.ms) * size.ms;
  const origin = Math.min(Math.floor(first / size.ms) * size.ms, lastStart - (minBuckets - 1) * size.ms);
  const count = Math.floor((last - origin) / size.ms) + 1;
  const spansDays = new Date(origin).toISOString().slice(0, 10) !== new Date(last).toISOString().slice(0, 10);
  const buckets: Bucket[] = Array.from({ length: count }, (_, index) => {
    const start = origin + index * size.ms;
    return { start: new Date(start).toISOString(), label: labelOf(start, size.ms, spansDays), delivered: 0, failed: 0 };
  });
  deliveries.forEach((delivery) => {
    const time = Date.parse(delivery.attempted_at);
    if (!Number.isFinite(time)) return;
    const bucket = buckets[Math.floor((time - origin) / size.ms)]!;
    if (delivery.succeeded) bucket.delivered += 1;
    else bucket.failed += 1;
  });
  return {
    buckets,
    sizeMs: size.ms,
    sizeLabel: size.label,
    delivered,
    failed,
    from: new Date(first).toISOString(),
    to: new Date(last).toISOString(),
  };
}

/**
 * The y-axis ticks for counts up to `max`: whole numbers from 0, in steps of 1, 2, 5, 10, 20, 50... so that at most
 * five ticks cover `max` (a chart of one attempt counts 0, 1; never 0, 0.25, 0.5 or a repeated 1).
 */
export function countTicks(max: number): number[] {
  const top = Math.max(1, Math.ceil(max));
  let step = 1;
  for (let scale = 1; ; scale *= 10) {
    step = [1, 2, 5].map((factor) => factor * scale).find((size) => Math.ceil(top / size) <= 4) ?? 0;
    if (step > 0) break;
  }
  const ticks: number[] = [];
  for (let tick = 0; tick < top + step; tick += step) ticks.push(tick);
  return ticks;
}

/** "4 min 10 s", "2 h 5 min", "3 days 4 h": the span shown, in its two largest units. */
export function describeSpan(ms: number): string {
  const units: Array<[number, string]> = [
    [day, "day"],
    [hour, "h"],
    [minute, "min"],
    [second, "s"],
  ];
  const parts: string[] = [];
  let rest = Math.max(0, Math.round(ms / second) * second);
  for (const [size, name] of units) {
    const amount = Math.floor(rest / size);
    rest -= amount * size;
    if (amount > 0 || parts.length > 0) parts.push(name === "day" ? `${amount} ${amount === 1 ? "day" : "days"}` : `${amount} ${name}`);
    if (parts.length === 2) break;
  }
  const shown = parts.filter((part) => !part.startsWith("0 "));
  return shown.length > 0 ? shown.join(" ") : "under 1 s";
}
