import type { Pool } from "pg";

/**
 * Checks the audit trail's hash chain (docs/audit-trail.md). The database's trigger appends a link to
 * `console.audit_chain` for every insert and every finalization of an audit record, hashing the record's content at
 * that moment with the previous link's hash (drizzle/console/0011_audit_tamper_evident.sql). This recomputes every
 * link from the records as they are now, with its own SQL rather than the database's functions (which whoever
 * tampered could have replaced), and reports the first link that does not hold.
 */

/** What a link's hash covers: the same expression as console.audit_chain_content, written out again on purpose. */
const contentOfLink = `CASE c.kind
  WHEN 'insert' THEN jsonb_build_array('insert', r.id, floor(extract(epoch FROM r.at))::bigint, r.actor_id, r.actor_email, r.role,
    r.environment, r.action, r.target_id, r.before, r.request_id)::text
  ELSE jsonb_build_array('finalize', r.id, r.outcome, r."after", r.error, floor(extract(epoch FROM r.finished_at))::bigint)::text
END`;

const pageQuery = `SELECT c.seq::text AS seq, c.record_id::text AS record_id, c.kind, c.prev_hash, c.hash,
    CASE WHEN r.id IS NULL THEN NULL ELSE encode(sha256(convert_to(c.prev_hash || '|' || ${contentOfLink}, 'UTF8')), 'hex') END AS expected
  FROM console.audit_chain c LEFT JOIN console.audit_records r ON r.id = c.record_id
  WHERE c.seq > $1 ORDER BY c.seq LIMIT $2`;

const unlinkedQuery = `SELECT r.id::text AS record_id,
    CASE WHEN i.seq IS NULL THEN 'insert' ELSE 'finalize' END AS kind
  FROM console.audit_records r
  LEFT JOIN console.audit_chain i ON i.record_id = r.id AND i.kind = 'insert'
  LEFT JOIN console.audit_chain f ON f.record_id = r.id AND f.kind = 'finalize'
  WHERE i.seq IS NULL OR (r.outcome <> 'pending' AND f.seq IS NULL)
  ORDER BY r.id LIMIT 1`;

export interface ChainBreak {
  /** The first link that does not hold; null when a record has no link at all. */
  seq: number | null;
  recordId: number;
  problem: string;
}

export interface ChainReport {
  links: number;
  /** The last link's hash: note it somewhere else, and a later rewrite of the whole chain shows as a different head. */
  head: string | null;
  broken: ChainBreak | null;
}

interface LinkRow {
  seq: string;
  record_id: string;
  kind: "insert" | "finalize";
  prev_hash: string;
  hash: string;
  expected: string | null;
}

export async function verifyAuditChain(pool: Pick<Pool, "query">, pageSize = 5000): Promise<ChainReport> {
  let previous = "";
  let after = "0";
  let links = 0;
  for (;;) {
    const { rows } = await pool.query<LinkRow>(pageQuery, [after, pageSize]);
    for (const row of rows) {
      const at = { seq: Number(row.seq), recordId: Number(row.record_id) };
      if (row.prev_hash !== previous) {
        return {
          links,
          head: previous || null,
          broken: { ...at, problem: `link ${row.seq} does not follow the link before it: a link was removed, reordered or rewritten` },
        };
      }
      if (row.expected === null)
        return { links, head: previous || null, broken: { ...at, problem: `record ${row.record_id} is gone (its ${row.kind} is in the chain)` } };
      if (row.expected !== row.hash) {
        return {
          links,
          head: previous || null,
          broken: { ...at, problem: `record ${row.record_id} differs from what was recorded at its ${row.kind}` },
        };
      }
      previous = row.hash;
      links += 1;
    }
    if (rows.length < pageSize) break;
    after = rows.at(-1)!.seq;
  }
  const { rows: unlinked } = await pool.query<{ record_id: string; kind: string }>(unlinkedQuery);
  const [missing] = unlinked;
  if (missing) {
    return {
      links,
      head: previous || null,
      broken: {
        seq: null,
        recordId: Number(missing.record_id),
        problem: `record ${missing.record_id} has no ${missing.kind} link: it was written past the trigger`,
      },
    };
  }
  return { links, head: previous || null, broken: null };
}
