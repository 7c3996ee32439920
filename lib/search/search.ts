/**
 * Search over the index as a role may: the ranked candidates (candidates.ts), each shown masked as every page shows
 * it, with what matched (matched-fields.ts), grouped by kind; and the audit of a search that may match masked fields.
 */
import { audited, type AuditEntry } from "@/lib/audit/trail";
import type { ListedResource } from "@/lib/contract/operations";
import type { Environment } from "@/lib/credentials/environments";
import type { Role } from "@/lib/permissions";
import { maskForViewer, type MaskedResource } from "@/lib/pii";
import { candidates } from "./candidates";
import type { Visibility } from "./document";
import { matchedFields, nameAnswers, type MatchedField } from "./matched-fields";
import { nameOf } from "./names";
import type { ParsedQuery } from "./query";
import { searchableBy } from "./searchable";
import type { ConsoleDb } from "@/lib/db/console-db";

export interface SearchHit {
  id: string;
  resource: ListedResource;
  name: string | null;
  status: string | null;
  amount: string | null;
  createdAt: string | null;
  matched: MatchedField[];
  score: number;
}

export interface SearchGroup {
  resource: ListedResource;
  hits: SearchHit[];
}

export interface SearchResults {
  query: string;
  /** Groups by kind, the group of the best hit first; hits best first. */
  groups: SearchGroup[];
  total: number;
  /** Parts of the documents searched (in some kinds at least): `userdata` and `personal` only for roles that may see them. */
  searched: Visibility[];
}

export const searchLimit = 50;

/** Added to a typo's result whose name resembles every word of the query: above any similarity score (at most 100). */
const similarNameBonus = 100;

/** Searches the index of one environment as `role` may: every object the query names, grouped by kind, best first. */
export async function searchIndex(
  db: ConsoleDb,
  input: { environment: Environment; role: Role; query: ParsedQuery; limit?: number },
): Promise<SearchResults> {
  const visible = searchableBy(input.role);
  const found = await candidates(db, input.environment, input.query, visible, input.limit ?? searchLimit);
  const hits: SearchHit[] = [];
  for (const row of found.rows) {
    const shownState = maskForViewer(row.resource as MaskedResource, structuredClone(row.state));
    const matched = matchedFields(row.resource, row.state, shownState, input.query, visible);
    if (row.counterparty) matched.unshift({ field: "counterparty", shown: row.counterparty.name, how: "text", masked: false });
    // A typo's net is wide (a word similar to one of a deposit sweep's codes): a result none of whose fields the
    // searcher can see resembles the query is not shown.
    if (found.similar && matched.length === 0) continue;
    const name = nameOf(row.resource, shownState);
    hits.push({
      id: row.id,
      resource: row.resource,
      name,
      status: typeof shownState.status === "string" ? shownState.status : null,
      amount: typeof shownState.amount === "string" ? shownState.amount : null,
      createdAt: typeof shownState.created_at === "string" ? shownState.created_at : null,
      matched: matched.slice(0, 4),
      // For a typo, the object whose own name resembles every word comes first ("Tomas Smith": Thomas Smith, then
      // the other Smiths).
      score: Number(row.score) + (found.similar && name !== null && nameAnswers(name, input.query, true) ? similarNameBonus : 0),
    });
  }
  hits.sort((a, b) => b.score - a.score);
  const groups = new Map<ListedResource, SearchHit[]>();
  for (const hit of hits) groups.set(hit.resource, [...(groups.get(hit.resource) ?? []), hit]);
  return {
    query: input.query.text,
    groups: [...groups].map(([resource, hits]) => ({ resource, hits })),
    total: hits.length,
    searched: visible.map((part) => part.visibility),
  };
}

/**
 * The search as the console runs it for a staff member: a role that may match masked fields (userdata, personal data)
 * leaves an audit record of every search, with its terms and which results matched in masked fields, written before
 * the search runs (no record, no search).
 */
export async function searchAsStaff(
  db: ConsoleDb,
  input: { environment: Environment; actor: AuditEntry["actor"]; requestId: string; query: ParsedQuery },
): Promise<SearchResults> {
  const run = () => searchIndex(db, { environment: input.environment, role: input.actor.role, query: input.query });
  if (searchableBy(input.actor.role).length === 1) return run();
  return audited(
    db,
    {
      actor: input.actor,
      environment: input.environment,
      action: "search.masked_fields",
      targetId: null,
      before: { query: input.query.text },
      requestId: input.requestId,
    },
    run,
    {
      after: (results) => ({
        results: results.total,
        matchedInMaskedFields: results.groups.flatMap((group) =>
          group.hits
            .filter((hit) => hit.matched.some((match) => match.masked))
            .map((hit) => ({ id: hit.id, fields: hit.matched.filter((match) => match.masked).map((match) => match.field) })),
        ),
      }),
    },
  );
}
