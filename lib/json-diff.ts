/**
 * A structural diff of two JSON values, as the paths that differ: the userdata editor shows it before saving, and the
 * Timeline shows it for an audit record's before and after. Objects are compared key by key (recursively);
 * arrays and scalars are compared as whole values, because an index-by-index diff of a shifted array reads as noise.
 */
export interface JsonChange {
  /** Dotted path from the root (`limits.daily`); "" is the root itself. */
  path: string;
  kind: "added" | "removed" | "changed";
  before?: unknown;
  after?: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Canonical text of a value: object keys sorted, so `{"a":1,"b":2}` equals `{"b":2,"a":1}`. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export function jsonDiff(before: unknown, after: unknown, path = ""): JsonChange[] {
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) => {
      const at = path ? `${path}.${key}` : key;
      if (!(key in before)) return [{ path: at, kind: "added" as const, after: after[key] }];
      if (!(key in after)) return [{ path: at, kind: "removed" as const, before: before[key] }];
      return jsonDiff(before[key], after[key], at);
    });
  }
  if (canonicalJson(before) === canonicalJson(after)) return [];
  return [{ path, kind: "changed", before, after }];
}

/**
 * The field diff of an audit record's before and after, as the Timeline and the audit log show it: a missing side of an
 * object (a create's before, a reveal's before) counts as `{}`, so each field reads as added; `updated_at` is left
 * out unless nothing else changed.
 */
export function recordChanges(before: unknown, after: unknown): JsonChange[] {
  if ((before === null || before === undefined) && (after === null || after === undefined)) return [];
  const changes = jsonDiff(before ?? (isObject(after) ? {} : before), after ?? (isObject(before) ? {} : after));
  return changes.length > 1 ? changes.filter((change) => change.path !== "updated_at") : changes;
}
