"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useDisplayZone } from "@/components/format/time-zone";
import { axisTimes, exactTime } from "@/lib/format";
import { countTicks, type DeliveryBuckets } from "@/lib/webhooks/delivery-buckets";

/**
 * A stacked bar chart of the shown attempts, delivered and failed, in buckets sized to the time they span
 * (lib/webhooks/delivery-buckets.ts; recharts, loaded after the page). The summary line above it and the table below
 * carry the same data in text.
 */
export default function DeliveryTimeline({ chart }: { chart: DeliveryBuckets }) {
  // Whole counts from 0, each tick once: recharts' own ticks repeat a rounded 1 when the tallest bar is 1 or 2.
  const ticks = countTicks(Math.max(0, ...chart.buckets.map((bucket) => bucket.delivered + bucket.failed)));
  // The axis in the staff member's zone like every other time on the page; a bar's exact start is in its tooltip.
  const { zone } = useDisplayZone();
  const labels = axisTimes(
    chart.buckets.map((bucket) => bucket.start),
    zone,
    chart.sizeMs,
  );
  const data = chart.buckets.map((bucket, index) => ({ ...bucket, label: labels[index], exact: exactTime(bucket.start, zone) }));
  return (
    <div
      role="img"
      aria-label={`Delivery attempts per ${chart.sizeLabel}, delivered and failed; the table below lists every attempt.`}
      className="h-32 w-full text-xs"
      data-testid="delivery-timeline"
      data-bucket={chart.sizeLabel}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ left: 0, right: 8, top: 4, bottom: 0 }} barCategoryGap={1} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--line)" vertical={false} />
          <XAxis dataKey="label" stroke="var(--muted)" tickLine={false} minTickGap={16} />
          <YAxis allowDecimals={false} ticks={ticks} domain={[0, ticks.at(-1)!]} interval={0} stroke="var(--muted)" width={28} tickLine={false} />
          <Tooltip
            cursor={{ fill: "var(--surface-2)" }}
            contentStyle={{ background: "var(--surface)", borderColor: "var(--line)", color: "var(--fg)" }}
            labelFormatter={(label, payload) => `${String(payload[0]?.payload.exact ?? label)} (${chart.sizeLabel})`}
          />
          <Bar dataKey="delivered" name="Delivered" stackId="attempts" fill="#059669" maxBarSize={40} isAnimationActive={false} />
          <Bar dataKey="failed" name="Failed" stackId="attempts" fill="#dc2626" maxBarSize={40} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
