import type { AuditEntry } from "@/lib/audit/trail";
import type { Environment } from "@/lib/credentials/environments";
import type { ConsoleDb } from "@/lib/db/console-db";
import type { Role } from "@/lib/permissions";
import type { ParsedQuery } from "./query";
import { searchAsStaff, searchIndex, type SearchResults } from "./search";

/**
 * One audit record per search, not per keystroke (docs/search.md, docs/audit-trail.md). The search box asks twice:
 * while the person types, a PREVIEW, and once they stop typing or press Enter, the SEARCH itself. A preview matches
 * only what every role sees (the documents' public part, as a viewer's search does), so it reads nothing masked and
 * is not recorded. The search matches all the role may match and, for a role that may match masked fields, is
 * recorded before it runs (`searchAsStaff`: no record, no search). Matches in masked fields therefore only ever leave
 * the server in answer to a recorded request: a client that never sends the final request has seen public matches
 * alone, which every page shows every role.
 */

/** The role whose search a preview is: the one that matches no masked field (lib/search/searchable.ts). */
export const previewRole: Role = "viewer";

export function searchForStaff(
  db: ConsoleDb,
  input: { environment: Environment; actor: AuditEntry["actor"]; requestId: string; query: ParsedQuery; preview: boolean },
): Promise<SearchResults> {
  if (input.preview) return searchIndex(db, { environment: input.environment, role: previewRole, query: input.query });
  return searchAsStaff(db, input);
}
