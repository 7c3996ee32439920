import { sql, type SQL } from "drizzle-orm";

const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

/**
 * The index's `name` filter on a list (`o` the objects): every word appears in the object's name (its kind's name
 * fields, lib/search/name-filter.ts, joined by a blank), in any case. Names are shown to every role (lib/pii: names in
 * full), so this compares nothing a role sees masked.
 */
export function nameCondition({ words, fields }: { words: string[]; fields: readonly string[] }): SQL {
  // The fields are the definition's constants, never the URL's text.
  if (!fields.every((field) => /^[a-z_]+$/.test(field))) throw new Error(`not a name field: ${fields.join(", ")}`);
  const name = sql.raw(`concat_ws(' ', ${fields.map((field) => `o.state->>'${field}'`).join(", ")})`);
  return sql.join(
    words.map((word) => sql`${name} ILIKE ${`%${likeEscaped(word)}%`}`),
    sql` AND `,
  );
}
