import type { JsonChange } from "@/lib/json-diff";

const tone = { removed: "text-red-700 dark:text-red-300", added: "text-emerald-700 dark:text-emerald-400", changed: "" } as const;
const mark = { removed: "− ", added: "+ ", changed: "~ " } as const;

/** A userdata diff, one line per path: `+ path: value`, `− path: value`, `~ path: before → after`. */
export function UserdataChanges({ changes, testId }: { changes: JsonChange[]; testId?: string }) {
  return (
    <ul className="space-y-0.5 font-mono text-xs" data-testid={testId}>
      {changes.map((change) => (
        <li key={change.path} data-kind={change.kind} className={tone[change.kind]}>
          {mark[change.kind]}
          {change.path || "(whole value)"}:{" "}
          {change.kind === "added"
            ? JSON.stringify(change.after)
            : change.kind === "removed"
              ? JSON.stringify(change.before)
              : `${JSON.stringify(change.before)} → ${JSON.stringify(change.after)}`}
        </li>
      ))}
    </ul>
  );
}
