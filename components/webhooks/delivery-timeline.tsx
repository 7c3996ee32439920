"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { Delivery } from "./webhook-deliveries";

/** The page's attempts per minute, delivered and failed, oldest on the left. */
export function timelineOf(deliveries: Delivery[]): Array<{ minute: string; delivered: number; failed: number }> {
  const buckets = new Map<string, { minute: string; delivered: number; failed: number }>();
  for (const delivery of [...deliveries].reverse()) {
    const minute = delivery.attempted_at.slice(11, 16);
    const bucket = buckets.get(minute) ?? { minute, delivered: 0, failed: 0 };
    if (delivery.succeeded) bucket.delivered += 1;
    else bucket.failed += 1;
    buckets.set(minute, bucket);
  }
  return [...buckets.values()];
}

/** A small stacked bar chart of successes and failures (recharts, loaded after the page); the table below has every attempt in text. */
export default function DeliveryTimeline({ deliveries }: { deliveries: Delivery[] }) {
  const data = timelineOf(deliveries);
  return (
    <div role="img" aria-label="Delivery attempts per minute on this page, delivered and failed; the table below lists every attempt." className="mb-3 h-32 w-full text-xs" data-testid="delivery-timeline">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ left: 0, right: 8, top: 4 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--line)" />
          <XAxis dataKey="minute" stroke="var(--muted)" />
          <YAxis allowDecimals={false} stroke="var(--muted)" width={28} />
          <Tooltip contentStyle={{ background: "var(--surface)", borderColor: "var(--line)", color: "var(--fg)" }} />
          <Legend />
          <Bar dataKey="delivered" stackId="attempts" fill="#059669" isAnimationActive={false} />
          <Bar dataKey="failed" stackId="attempts" fill="#dc2626" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
