import { z } from "zod";
import { badInput, notFound } from "@/lib/api/errors";
import type { RouteDefinition } from "@/lib/api/route";
import type { Environment } from "@/lib/credentials/environments";
import type { ConsoleDb } from "@/lib/db/console-db";
import { businessLinks, personLinks } from "./links";
import { customerMovements, customerTotals, indexFreshness, readCursor } from "./movements";

/** What the customer view's route needs; the route file wires the real ones. */
export interface CustomerRouteDependencies {
  activeEnvironment(): Promise<Environment>;
  db(): Promise<ConsoleDb>;
}

const counterpartyId = z.string().regex(/^cp_[A-Za-z0-9_-]{1,97}$/, "id: expected a counterparty id (cp_…)");

/**
 * `GET /api/customer/{cp_id}?page_cursor=…`: a counterparty's money movements from the console's index, newest first,
 * a page of 10 (`page_next` the next page's cursor), its totals in and out over the last 30 days and what the index is
 * (its newest change, whether it has walked the ACH list in full). Every staff role reads the bank, and every row is
 * masked as every page shows it; 400 for an id that is not a counterparty's or a cursor this route did not write.
 */
export function customerRoute(dependencies: CustomerRouteDependencies): RouteDefinition<{ id: string }, { page_cursor?: string }> {
  return {
    permission: "bank:read",
    rateLimit: "indexList",
    params: z.object({ id: counterpartyId }),
    query: z.strictObject({ page_cursor: z.string().max(200, "page_cursor: at most 200 characters").optional() }),
    async handle(call) {
      const cursor = call.query.page_cursor ? readCursor(call.query.page_cursor) : null;
      if (call.query.page_cursor && !cursor) throw badInput("page_cursor: not a cursor of this list");
      const db = await dependencies.db();
      const environment = await dependencies.activeEnvironment();
      const page = await customerMovements(db, environment, call.params.id, { cursor });
      return {
        data: page.data,
        ...(page.nextCursor && { page_next: page.nextCursor }),
        totals: await customerTotals(db, environment, call.params.id),
        index: await indexFreshness(db, environment),
      };
    },
  };
}

const applicationId = z
  .string()
  .regex(/^(apsn|abus)_[A-Za-z0-9_-]{1,95}$/, "id: expected a person application id (apsn_…) or a business application id (abus_…)");

/**
 * `GET /api/customer/{apsn_…|abus_…}/links`: what the console's index links to a person or a business
 * (lib/customer/links.ts): for a person application, the person it created, their cards and deposit sweeps, the
 * accounts those use, the business applications naming it; for a business application, its owners; for both, the
 * index's recent changes of those objects and what the index is. Every staff role reads the bank; every object masked
 * as every page shows it; 400 for another id, 404 when the index does not hold the application.
 */
export function customerLinksRoute(dependencies: CustomerRouteDependencies): RouteDefinition<{ id: string }, Record<string, never>> {
  return {
    permission: "bank:read",
    rateLimit: "indexList",
    params: z.object({ id: applicationId }),
    query: z.strictObject({}),
    async handle(call) {
      const db = await dependencies.db();
      const environment = await dependencies.activeEnvironment();
      const links = call.params.id.startsWith("apsn_")
        ? await personLinks(db, environment, call.params.id)
        : await businessLinks(db, environment, call.params.id);
      if (!links) throw notFound(`The console's index holds no application ${call.params.id} yet.`);
      return { ...links, index: await indexFreshness(db, environment) };
    },
  };
}
