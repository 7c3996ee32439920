import { randomInt } from "node:crypto";
import { and, desc, eq, isNotNull } from "drizzle-orm";
import type { SandboxContext } from "../context";
import { counterparties } from "../db/resources-schema";
import { newId } from "../events/emit";
import { badRequest } from "../http/errors";
import { achEffectiveDate, achScheduledSettlement, bankDateOf, businessDayOnOrAfter, estimatedSettlementAt } from "../lifecycle/calendar";
import { TRACE_PREFIX } from "../seed/payments";
import { banks, naicsSectors, routingNumber } from "../seed/vocabulary";

/**
 * What POST /sandbox/{resource} fills in for the fields a test does not give: values the bank would choose for a new
 * object at the sandbox clock's `now` (its calendar's settlement dates, fresh account ids, a pending status).
 */

export type Fields = Record<string, unknown>;
export type CreatableResource = "ach" | "fednow" | "network_transfer" | "counterparty" | "person_application" | "business_application" | "card";

export interface Creatable {
  /**
   * Fields the bank sets as the object lives: a new object starts where the bank starts it (pending), and a test moves
   * it on with POST /sandbox/{resource}/{id}/transition, which fires the events of each step.
   */
  setByBank: string[];
  defaults(ctx: SandboxContext, given: Fields, now: Date): Fields | Promise<Fields>;
}

const digits = (count: number) => Array.from({ length: count }, () => randomInt(0, 10)).join("");
export const timestampText = (instant: Date) => `${instant.toISOString().slice(0, 19)}Z`;
const routing = routingNumber(banks[0]![0]);
const address = { street_line_1: "100 Main St", street_line_2: null, city: "New York", state: "NY", postal_code: "10001", country: "US" };
const money = "100.00";

/** An ACH transfer goes to a counterparty with an ach section (the spec's rule): the one given, else the newest. */
async function achCounterparty(ctx: SandboxContext, given: unknown): Promise<string> {
  const withAch = and(isNotNull(counterparties.ach), given === undefined ? undefined : eq(counterparties.id, String(given)));
  const [found] = await ctx.db
    .select({ id: counterparties.id })
    .from(counterparties)
    .where(withAch)
    .orderBy(desc(counterparties.created_at), desc(counterparties.id))
    .limit(1);
  if (found) return found.id;
  throw badRequest(
    given === undefined
      ? "counterparty_id is required: no counterparty with an ach section exists (create one with POST /sandbox/counterparty)"
      : `counterparty_id ${String(given)} is not a counterparty with an ach section`,
  );
}

export const creatable: Record<CreatableResource, Creatable> = {
  ach: {
    setByBank: ["status", "error"],
    async defaults(ctx, given, now) {
      const service = (given.service as "standard" | "sameday" | undefined) ?? "standard";
      const effectiveDate = (given.effective_date as string | undefined) ?? achEffectiveDate(now, service);
      return {
        account_id: newId("acct"),
        counterparty_id: await achCounterparty(ctx, given.counterparty_id),
        amount: money,
        description: null,
        direction: "credit",
        effective_date: effectiveDate,
        error: null,
        originator_name: null,
        scheduled_settlement: timestampText(achScheduledSettlement(effectiveDate, service)),
        sec_code: "ppd",
        service,
        status: "pending",
        userdata: null,
        org_id: null,
        trace_number: `${TRACE_PREFIX}${digits(7)}`,
      };
    },
  },
  network_transfer: {
    setByBank: ["status", "error", "balanced_at"],
    defaults: (_ctx, _given, now) => ({
      amount: money,
      cross_bank: false,
      description: null,
      estimated_settlement_at: timestampText(estimatedSettlementAt(now)),
      from_account_id: newId("acct"),
      to_account_id: newId("acct"),
      status: "pending",
      userdata: null,
      error: null,
      org_id: null,
      version: "v2",
      balanced_at: null,
      bankdata: null,
    }),
  },
  fednow: {
    setByBank: ["status", "error", "external_status", "external_reject_reason"],
    defaults(_ctx, given, now) {
      const bankDate = bankDateOf(now);
      const externalRouting = (given.external_routing_number as string | undefined) ?? routing;
      return {
        account_id: newId("acct"),
        amount: money,
        bank_id: newId("bank"),
        org_id: newId("org"),
        currency: "USD",
        description: null,
        memo: null,
        error: null,
        external_account_number: digits(10),
        external_name: "Sandbox Counterparty",
        external_routing_number: externalRouting,
        external_status: null,
        external_reject_reason: null,
        fed_settlement_date: businessDayOnOrAfter(bankDate),
        originator_name: null,
        // As the network numbers payments: its date, the sender's routing number, a sequence.
        payment_id: `${bankDate.replaceAll("-", "")}${externalRouting}${digits(10)}`,
        payment_type: "credit",
        related_fednow_ids: [],
        security_context: { device_id: `dev-${digits(16)}`, ip_address: "192.0.2.10", user_agent: "sandbox-control" },
        status: "pending",
      };
    },
  },
  counterparty: {
    setByBank: [],
    defaults: () => ({
      name: "Sandbox Counterparty",
      ach: { account_number: digits(10), account_type: "checking", routing_number: routing },
      wire: null,
      userdata: null,
    }),
  },
  person_application: {
    setByBank: [],
    defaults: () => ({
      bankdata: null,
      citizenship: "US",
      date_of_birth: "1990-01-01",
      email_address: "jane.doe@example.com",
      first_name: "Jane",
      middle_name: null,
      last_name: "Doe",
      identification_number: null,
      identification_number_type: null,
      occupation: "Software engineer",
      person_id: null,
      phone_number: "+12125550100",
      physical_address: address,
      userdata: null,
      document_ids: [],
      mailing_address: null,
      secondary_email_address: null,
    }),
  },
  business_application: {
    setByBank: [],
    defaults: () => {
      const [naics, naicsDescription] = naicsSectors.find(([code]) => code === "54")!;
      return {
        bank_id: newId("bank"),
        bankdata: null,
        dba: null,
        description: "Sandbox test business",
        established_on: "2015-01-01",
        identification_number: null,
        identification_number_type: null,
        incorporation_state: "DE",
        legal_structure: "llc",
        mailing_address: address,
        physical_address: address,
        naics,
        naics_description: naicsDescription,
        name: "Sandbox Test LLC",
        person_applications: [],
        phone_number: "+12125550100",
        tin: "12-3456789",
        urls: [],
        userdata: null,
        document_ids: [],
        publicly_traded: null,
        org_id: null,
        parent_businesses: [],
      };
    },
  },
  card: {
    setByBank: [],
    defaults(_ctx, _given, now) {
      const expiry = new Date(now.getTime() + 3 * 365 * 86_400_000);
      return {
        account_id: newId("acct"),
        person_id: null,
        cardholder_name: "JANE DOE",
        form: "virtual",
        last_four: digits(4),
        expiration_month: String(expiry.getUTCMonth() + 1).padStart(2, "0"),
        expiration_year: String(expiry.getUTCFullYear()),
        status: "active",
        userdata: null,
      };
    },
  },
};
