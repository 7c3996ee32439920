/**
 * The userdata editor's check of its text, run on every keystroke: the bank accepts a JSON object of at most 1 KB
 * once serialized (lib/contract/primitives.ts `userdataInput`, which the proxy validates again), so the editor refuses
 * anything else before it could reach the bank and shows the size as the bank will count it.
 */
export const userdataMaxBytes = 1024;

export type UserdataCheck = { ok: true; value: Record<string, unknown>; bytes: number } | { ok: false; reason: string; bytes: number | null };

/** Bytes of the compact UTF-8 JSON the console sends (and the bank measures). */
export function serializedBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}

export function checkUserdata(text: string): UserdataCheck {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}`, bytes: null };
  }
  const bytes = serializedBytes(value);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const kind = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
    return { ok: false, reason: `userdata must be a JSON object ({...}), not ${kind}.`, bytes };
  }
  if (bytes > userdataMaxBytes) {
    return { ok: false, reason: `userdata must be at most ${userdataMaxBytes} bytes once serialized; this is ${bytes} bytes.`, bytes };
  }
  return { ok: true, value: value as Record<string, unknown>, bytes };
}
