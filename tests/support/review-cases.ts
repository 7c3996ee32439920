import { randomUUID } from "node:crypto";
import { beforeAll } from "vitest";
import { audited } from "@/lib/audit/trail";
import type { StaffUser } from "@/lib/auth/staff-user";
import { createStaff } from "@/lib/auth/staff-users";
import type { Environment } from "@/lib/credentials/environments";
import * as schema from "@/lib/db/console-schema";
import { reviewActions, type ReviewActionState } from "@/lib/reviews/actions";
import { formOf, requireRole } from "./audit-records";
import type { migratedConsoleDatabase } from "./console-database";
import { indexPersonApplication } from "./review-applications";

type TestDatabase = ReturnType<typeof migratedConsoleDatabase>;

export const reviewEnvironment: Environment = "sandbox";
export const idleReviewAction: ReviewActionState = { error: null, done: null };
const hour = 3_600_000;

export interface ReviewPeople {
  reviewerA: StaffUser;
  reviewerB: StaffUser;
  viewer: StaffUser;
  admin: StaffUser;
}

/** What the database answered a statement with (drizzle wraps the driver's error as its cause). */
export const refusal = (query: Promise<unknown>) =>
  query.then(
    () => "allowed",
    (error: Error) => (error.cause instanceof Error ? error.cause.message : error.message),
  );

/**
 * The reviewer's server actions against a real console database: applications are put in the index as the worker
 * would, the session is given (`requireRole` refuses a role without the permission, as requireUser does). Each action
 * runs under a new request id, told to `onRequest` (a test reads that request's audit records by it).
 */
export function reviewCaseKit(database: TestDatabase, onRequest: (requestId: string) => void) {
  let actor: StaffUser | undefined;
  let requestId = "";
  const actionsFor = (user: () => StaffUser, newRequestId: () => string) =>
    reviewActions({
      requireUser: requireRole(user),
      db: async () => database.db,
      environment: async () => reviewEnvironment,
      audited: (entry, perform, options) => audited(database.db, entry, perform, options),
      newRequestId,
      changed: () => undefined,
    });
  const actions = actionsFor(
    () => actor!,
    () => requestId,
  );
  const as = (user: StaffUser) => {
    actor = user;
    requestId = `req_${randomUUID()}`;
    onRequest(requestId);
  };
  const staff = (role: StaffUser["role"]) => createStaff(database.db, { email: `${randomUUID()}@bank.example`, name: role, role, password: null });
  return {
    actions,
    /** The actions as `user` alone, each under its own request id: one session among others running at once. */
    sessionOf: (user: StaffUser) =>
      actionsFor(
        () => user,
        () => `req_${randomUUID()}`,
      ),
    as,
    staff,
    /**
     * Two compliance reviewers, a viewer and an admin, made once for the file's tests by a `beforeAll` this registers
     * (so it is called in the `describe`): their fields are set when the first test runs.
     */
    reviewPeople: () => {
      const people = {} as ReviewPeople;
      beforeAll(async () => {
        const [reviewerA, reviewerB, viewer, admin] = await Promise.all([staff("compliance"), staff("compliance"), staff("viewer"), staff("admin")]);
        Object.assign(people, { reviewerA, reviewerB, viewer, admin });
      });
      return people;
    },
    run: (action: keyof typeof actions, user: StaffUser, fields: Record<string, string>) => {
      as(user);
      return actions[action](idleReviewAction, formOf(fields));
    },
    indexedPerson: (ageHours: number, bankdata?: unknown) => indexPersonApplication(database.db, reviewEnvironment, ageHours, bankdata),
    indexedBusiness: async (owners: string[]) => {
      const id = `abus_${randomUUID().replaceAll("-", "")}`;
      const created = new Date(Date.now() - hour);
      const state = {
        id,
        name: "Acme LLC",
        person_applications: owners.map((owner) => ({ id: owner, ownership_percentage: 50, roles: ["signer"], title: "CEO" })),
        created_at: created.toISOString(),
      };
      await database.db.insert(schema.bankObjects).values({
        environment: reviewEnvironment,
        id,
        resource: "business_application",
        state,
        bankCreatedAt: created,
        bankUpdatedAt: created,
        version: 1,
      });
      return id;
    },
  };
}
