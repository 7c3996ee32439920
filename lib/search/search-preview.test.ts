import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { listAuditRecords } from "@/lib/audit/trail";
import { recordObservations } from "@/lib/index/store";
import type { Role } from "@/lib/permissions";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { parseSearchQuery } from "./query";
import type { SearchResults } from "./search";
import { previewRole, searchForStaff } from "./search-preview";
import { searchableBy } from "./searchable";

// One audit record per search, not per keystroke (lib/search/search-preview.ts): the search box sends a preview per
// keystroke (public fields only, never recorded) and the search itself once the person stops typing or presses Enter.

const email = "quillon.smith@example.test";
const application = {
  id: "apsn_preview_smith",
  first_name: "Quillon",
  last_name: "Smith",
  email_address: email,
  date_of_birth: "1971-03-04",
  identification_number: "123456789",
  identification_number_type: "ssn",
  updated_at: "2026-01-01T00:00:00Z",
};

describe.each(testDatabaseTargets)("the search box's previews and searches on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  const actorOf = (role: Role) => ({ id: `stf_preview_${role}`, email: `${role}.preview.${randomUUID().slice(0, 8)}@demo.bank`, role });

  beforeAll(async () => {
    await recordObservations(database.db, "sandbox", [{ resource: "person_application", id: application.id, state: application }], {
      source: "sweep",
    });
  });

  const ask = async (actor: ReturnType<typeof actorOf>, q: string, preview: boolean) => {
    const parsed = parseSearchQuery(q);
    if (!parsed.ok) throw new Error(parsed.error);
    return searchForStaff(database.db, { environment: "sandbox", actor, requestId: `req_${randomUUID()}`, query: parsed.query, preview });
  };
  const searchRecordsOf = (actor: ReturnType<typeof actorOf>) =>
    listAuditRecords(database.db, { actor: actor.email, action: "search.masked_fields" }, { limit: 100 });
  const ids = (results: SearchResults) => results.groups.flatMap((group) => group.hits.map((hit) => hit.id));

  it("leaves one audit record when compliance types a name letter by letter: the final query's", async () => {
    const compliance = actorOf("compliance");
    for (const typed of ["S", "Sm", "Smi", "Smit", "Smith"]) await ask(compliance, typed, true);
    const final = await ask(compliance, "Smith", false);
    expect(ids(final)).toContain(application.id);
    const records = await searchRecordsOf(compliance);
    expect(records.map((record) => record.before)).toEqual([{ query: "Smith" }]);
    expect(records[0]).toMatchObject({ outcome: "succeeded", after: expect.objectContaining({ results: final.total }) });
  });

  it("matches in masked fields only for the recorded search: a preview of an email finds nothing and records nothing", async () => {
    const compliance = actorOf("compliance");
    const preview = await ask(compliance, email, true);
    expect(ids(preview)).not.toContain(application.id);
    expect(preview.searched).toEqual(["public"]);
    expect(await searchRecordsOf(compliance)).toEqual([]);

    const searched = await ask(compliance, email, false);
    expect(ids(searched)).toContain(application.id);
    expect(searched.searched).toContain("personal");
    expect((await searchRecordsOf(compliance)).map((record) => record.before)).toEqual([{ query: email }]);
  });

  it("previews what the public part holds for every role, and a viewer's search is never recorded", async () => {
    expect(searchableBy(previewRole).map((part) => part.visibility)).toEqual(["public"]);
    const viewer = actorOf("viewer");
    expect(ids(await ask(viewer, "Quillon Smith", true))).toContain(application.id);
    expect(ids(await ask(viewer, "Quillon Smith", false))).toContain(application.id);
    expect(await searchRecordsOf(viewer)).toEqual([]);
  });
});
