"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { StatusBreakdown } from "@/lib/home/overview";

/** Fills by status meaning, the same families as the status badges. */
const colours: Record<string, string> = {
  sent: "#059669",
  done: "#10b981",
  pending: "#0ea5e9",
  processing: "#6366f1",
  returned: "#d97706",
  canceled: "#94a3b8",
  error: "#dc2626",
};

/** Stacked bars of money movements by status (recharts). The table beside it carries the same figures in text. */
export default function StatusChart({ data, statuses }: { data: StatusBreakdown[]; statuses: string[] }) {
  const rows = data.map((item) => ({ name: item.resource, ...item.counts }));
  return (
    <div role="img" aria-label="Bar chart of money movements by status; the table below lists the same figures." className="h-56 w-full text-xs">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} layout="vertical" margin={{ left: 24, right: 16 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--line)" />
          <XAxis type="number" stroke="var(--muted)" allowDecimals={false} />
          <YAxis type="category" dataKey="name" stroke="var(--muted)" width={120} />
          <Tooltip contentStyle={{ background: "var(--surface)", borderColor: "var(--line)", color: "var(--fg)" }} />
          <Legend />
          {statuses.map((status) => (
            <Bar key={status} dataKey={status} stackId="status" fill={colours[status] ?? "#64748b"} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
