/**
 * What a JSON request body may be before anyone parses or validates it, shared by the sandbox bank and the console:
 * no request of the API nests deeper than a few levels, and every string must be one PostgreSQL can store.
 */

/** Deeper than any body of the API (userdata included) needs; a deeper body is refused before JSON.parse. */
export const maxJsonDepth = 32;

/**
 * The deepest nesting of objects and arrays in JSON text, read in one pass without parsing (brackets inside strings
 * do not count), stopping as soon as `limit` is passed. Recursive code (JSON.stringify, zod) can then never meet a
 * structure deep enough to overflow the stack.
 */
export function jsonDepthExceeds(text: string, limit = maxJsonDepth): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c /* \ */) i++;
      else if (char === 0x22 /* " */) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x7b /* { */ || char === 0x5b /* [ */) {
      if (++depth > limit) return true;
    } else if (char === 0x7d /* } */ || char === 0x5d /* ] */) depth--;
  }
  return false;
}

/** PostgreSQL text and jsonb cannot hold NUL (U+0000) nor an unpaired UTF-16 surrogate (jsonb refuses `\udc00`). */
const unstorable = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isStorableText(value: string): boolean {
  return !unstorable.test(value);
}

export const unstorableTextMessage = "must not contain NUL (U+0000) or unpaired surrogate characters";

/**
 * True when every key and string of a parsed JSON value is storable text and it nests at most `limit` deep. Walks
 * with an explicit stack, so a value built in code (not parsed from a checked body) cannot overflow either.
 */
export function isStorableJson(value: unknown, limit = maxJsonDepth): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (typeof item === "string") {
      if (!isStorableText(item)) return false;
    } else if (item !== null && typeof item === "object") {
      if (depth >= limit) return false;
      for (const [key, child] of Object.entries(item)) {
        if (!isStorableText(key)) return false;
        pending.push([child, depth + 1]);
      }
    }
  }
  return true;
}

/** A request body's JSON text parsed under the rules above, or the problem to report (the caller's 400). */
export function parseJsonText(text: string): { value: unknown } | { problem: string } {
  if (jsonDepthExceeds(text)) return { problem: `JSON nested deeper than ${maxJsonDepth} levels` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `malformed JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!isStorableJson(value)) return { problem: `a key or string ${unstorableTextMessage}` };
  return { value };
}
