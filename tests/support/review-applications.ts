import { randomUUID } from "node:crypto";
import type { Environment } from "@/lib/credentials/environments";
import type { ConsoleDb } from "@/lib/db/console-db";
import * as schema from "@/lib/db/console-schema";

const hour = 3_600_000;

/**
 * A person application put in the console's index as the worker would, created `ageHours` ago, with a KYC result in its
 * bankdata (lib/reviews: the queue's risk summary, the case's checklist).
 */
export async function indexPersonApplication(
  db: ConsoleDb,
  environment: Environment,
  ageHours: number,
  bankdata: unknown = { kyc_vendor: "alloy", risk_score: 42, analyst_phone: "+15550001111" },
): Promise<string> {
  const id = `apsn_${randomUUID().replaceAll("-", "")}`;
  const created = new Date(Date.now() - ageHours * hour);
  const state = {
    id,
    first_name: "Ada",
    last_name: "Lovelace",
    date_of_birth: "1990-01-02",
    identification_number: "123456789",
    bankdata,
    created_at: created.toISOString(),
    updated_at: created.toISOString(),
  };
  await db
    .insert(schema.bankObjects)
    .values({ environment, id, resource: "person_application", state, bankCreatedAt: created, bankUpdatedAt: created, version: 1 });
  return id;
}
