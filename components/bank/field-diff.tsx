import { defaultTimeZone, formatFieldText, isMaskedText } from "@/lib/format";
import type { JsonChange } from "@/lib/json-diff";
import { fieldAt, type ResourceName } from "@/lib/resources";

type Change = Pick<JsonChange, "path" | "kind" | "before" | "after">;

const longest = 160;

/**
 * The one field diff: each changed field as `path: before → after`, its values read by the field's format in the
 * resource's definition (amounts with their currency, times in the staff member's zone, enum words; the raw JSON on
 * hover), masks shown as masks. The Timeline and the audit log render it; `visible` rows show, the rest fold away.
 */
export function FieldDiff({
  changes,
  resource,
  zone = defaultTimeZone,
  visible = changes.length,
  testId = "field-diff",
  itemTestId = "field-change",
}: {
  changes: Change[];
  resource?: ResourceName;
  zone?: string;
  visible?: number;
  testId?: string;
  itemTestId?: string;
}) {
  if (changes.length === 0) return null;
  const rows = (list: Change[]) =>
    list.map((change) => {
      const field = fieldAt(resource, change.path);
      const format = field ? (field.format ?? "text") : undefined;
      return (
        <li key={change.path} data-testid={itemTestId} data-path={change.path} data-kind={change.kind} className="break-all">
          <span title={field?.label}>{change.path || "(whole value)"}</span>: <Value value={change.before} format={format} zone={zone} />{" "}
          <span className="text-muted">→</span> <Value value={change.after} format={format} zone={zone} />
        </li>
      );
    });
  const hidden = changes.length - visible;
  return (
    <ul className="mt-0.5 space-y-0.5 font-mono text-xs" data-testid={testId}>
      {rows(hidden > 1 ? changes.slice(0, visible) : changes)}
      {hidden > 1 ? (
        <li>
          <details>
            <summary className="cursor-pointer text-muted hover:text-fg">{hidden} more fields</summary>
            <ul className="space-y-0.5">{rows(changes.slice(visible))}</ul>
          </details>
        </li>
      ) : null}
    </ul>
  );
}

function Value({ value, format, zone }: { value: unknown; format: string | undefined; zone: string }) {
  if (value === undefined) return <span className="text-muted">(absent)</span>;
  if (isMaskedText(value)) return <span className="text-muted">{String(value)}</span>;
  const text = formatFieldText(format, value, zone);
  const raw = JSON.stringify(value);
  const shown = text.length > longest ? `${text.slice(0, longest)}…` : text;
  return (
    <span title={raw !== text || text.length > longest ? raw : undefined} className={value === null ? "text-muted" : undefined}>
      {shown}
    </span>
  );
}

/**
 * An object recorded as it was, where nothing in it changed (an action whose before and after are the same, such as
 * "sign out everywhere"): its fields as `key: value`, read by the same rules, the rest folded after `visible`.
 */
export function RecordedFields({
  value,
  resource,
  zone = defaultTimeZone,
  visible = 4,
  testId = "recorded-fields",
}: {
  value: Record<string, unknown>;
  resource?: ResourceName;
  zone?: string;
  visible?: number;
  testId?: string;
}) {
  const entries = Object.entries(value);
  const rows = (list: Array<[string, unknown]>) =>
    list.map(([key, item]) => {
      const field = fieldAt(resource, key);
      return (
        <li key={key} data-path={key} className="break-all">
          <span title={field?.label}>{key}</span>: <Value value={item} format={field ? (field.format ?? "text") : undefined} zone={zone} />
        </li>
      );
    });
  const hidden = entries.length - visible;
  return (
    <ul className="mt-0.5 space-y-0.5 font-mono text-xs" data-testid={testId}>
      {rows(hidden > 1 ? entries.slice(0, visible) : entries)}
      {hidden > 1 ? (
        <li>
          <details>
            <summary className="cursor-pointer text-muted hover:text-fg">{hidden} more fields</summary>
            <ul className="space-y-0.5">{rows(entries.slice(visible))}</ul>
          </details>
        </li>
      ) : null}
    </ul>
  );
}
