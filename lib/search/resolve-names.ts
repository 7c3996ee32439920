import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { badInput } from "@/lib/api/errors";
import type { RouteDefinition } from "@/lib/api/route";
import type { AuditEntry } from "@/lib/audit/trail";
import type { Environment } from "@/lib/credentials/environments";
import type { ConsoleDb } from "@/lib/db/console-db";
import * as schema from "@/lib/db/console-schema";
import type { MatchedField } from "./matched-fields";
import { nameTargets, type NameTarget } from "./name-filter";
import { parseSearchQuery } from "./query";
import { searchAsStaff } from "./search";

/** One object a typed name may mean: the id the filter takes, its name, and what the search matched. */
export interface NameChoice {
  id: string;
  name: string | null;
  /** For a person, the application that names them (a person's own id is in no list). */
  via?: string;
  matched: MatchedField[];
}

/** At most this many choices are offered for one name. */
export const maxNameChoices = 10;

/**
 * The objects of one kind a typed name may mean, best first, through the search itself (lib/search/search.ts): the
 * same ranking, the same parts a role may match, and the same audit record of a search that may match masked fields
 * (`search.masked_fields`). A person (`psn_`) is found through the person applications the search finds, each person once.
 */
export async function resolveName(
  db: ConsoleDb,
  input: { environment: Environment; actor: AuditEntry["actor"]; requestId: string; target: NameTarget; text: string },
): Promise<NameChoice[] | { error: string }> {
  const parsed = parseSearchQuery(input.text);
  if (!parsed.ok) return { error: parsed.error };
  const results = await searchAsStaff(db, { environment: input.environment, actor: input.actor, requestId: input.requestId, query: parsed.query });
  const kind = input.target === "person" ? "person_application" : input.target;
  const hits = results.groups.find((group) => group.resource === kind)?.hits ?? [];
  const choices = hits.map((hit): NameChoice => ({ id: hit.id, name: hit.name, matched: hit.matched }));
  if (input.target !== "person") return choices.slice(0, maxNameChoices);
  return (await asPersons(db, input.environment, choices)).slice(0, maxNameChoices);
}

/** Person applications as the persons they created (in the same order, each person once); those without one are left out. */
async function asPersons(db: ConsoleDb, environment: Environment, applications: NameChoice[]): Promise<NameChoice[]> {
  if (applications.length === 0) return [];
  const rows = await db
    .select({ id: schema.bankObjects.id, state: schema.bankObjects.state })
    .from(schema.bankObjects)
    .where(
      and(
        eq(schema.bankObjects.environment, environment),
        inArray(
          schema.bankObjects.id,
          applications.map((application) => application.id),
        ),
      ),
    );
  const personOf = new Map(rows.map((row) => [row.id, (row.state as { person_id?: unknown } | null)?.person_id]));
  const persons = new Map<string, NameChoice>();
  for (const application of applications) {
    const person = personOf.get(application.id);
    if (typeof person === "string" && person !== "" && !persons.has(person)) persons.set(person, { ...application, id: person, via: application.id });
  }
  return [...persons.values()];
}

/** What the route needs; the route file wires the real ones. */
export interface ResolveNameDependencies {
  activeEnvironment(): Promise<Environment>;
  db(): Promise<ConsoleDb>;
}

/**
 * `GET /api/search/names?for=counterparty&q=Summit%20Media`: the ids a typed name may mean for an id filter (its
 * `for`: counterparty, card, person, person_application, business_application), best first, at most 10, each with its
 * name and what matched. Every role that reads the bank; audited as every search that may match masked fields; 400
 * naming what is wrong.
 */
export function resolveNameRoute(dependencies: ResolveNameDependencies): RouteDefinition<Record<string, never>, { for: NameTarget; q: string }> {
  return {
    permission: "bank:read",
    rateLimit: "search",
    query: z.strictObject({
      for: z.enum(nameTargets as [NameTarget, ...NameTarget[]], { error: `for: one of ${nameTargets.join(", ")}` }),
      q: z.string({ error: "q: the name to look for" }),
    }),
    async handle(call) {
      const db = await dependencies.db();
      const found = await resolveName(db, {
        environment: await dependencies.activeEnvironment(),
        actor: { id: call.user.id, email: call.user.email, role: call.user.role },
        requestId: call.requestId,
        target: call.query.for,
        text: call.query.q,
      });
      if ("error" in found) throw badInput(found.error);
      return { data: found };
    },
  };
}
