import type { achTransfers, fednowPayments, networkTransfers } from "@/sandbox/db/resources-schema";
import { businessDayOnOrAfter } from "@/sandbox/lifecycle/calendar";
import { achRules, fednowRules, networkTransferRules } from "@/sandbox/lifecycle/magic";
import type { SeededRandom } from "./random";
import type { CounterpartyRow } from "./parties";
import { pickCreatedBefore } from "./parties";
import {
  DAY,
  HISTORY_DAYS,
  HOUR,
  MINUTE,
  amount,
  id,
  laterInstant,
  pastInstant,
  personName,
  wholeSeconds,
  type CalendarCache,
  type SeedWorld,
} from "./shared";
import { achDescriptions, banks, businessNameWords, routingNumber, transferDescriptions, userAgents } from "./vocabulary";

export type AchRow = typeof achTransfers.$inferInsert;
export type NetworkTransferRow = typeof networkTransfers.$inferInsert;
export type FednowRow = typeof fednowPayments.$inferInsert;

/** Where an object is in its life: not yet picked up, in flight (left for the lifecycle engine), or finished. */
type Stage = "new" | "in_flight" | "finished";
/** Objects younger than this are still moving: the lifecycle engine advances them. */
const IN_FLIGHT_WINDOW = 3 * HOUR;

/** A creation time: recent for objects still moving, otherwise anywhere in the 90-day history. */
function createdAtFor(rng: SeededRandom, now: Date, stage: Stage): Date {
  return stage === "finished" ? pastInstant(rng, now, HISTORY_DAYS * DAY, IN_FLIGHT_WINDOW) : pastInstant(rng, now, IN_FLIGHT_WINDOW);
}

/** Bank's ODFI routing prefix: trace numbers are these 8 digits and a 7-digit sequence. */
export const TRACE_PREFIX = "09190762";

export interface AchPlan {
  stage: Stage;
  /** Index into achRules of the outcome, or -1 for success. */
  rule: number;
}

const achRuleIndex = (status: string) => achRules.findIndex((rule) => rule.outcome.status === status);

/**
 * The first ACH transfers of every set cover every status and every magic outcome, including some still pending
 * or processing whose magic amount makes the lifecycle engine fail them; the rest are drawn at random.
 */
export const achCoverage: AchPlan[] = [
  ...achRules.map((_, rule) => ({ stage: "finished" as const, rule })),
  { stage: "finished", rule: -1 },
  { stage: "new", rule: -1 },
  { stage: "new", rule: -1 },
  { stage: "new", rule: 0 },
  { stage: "new", rule: achRuleIndex("error") },
  { stage: "new", rule: achRuleIndex("canceled") },
  { stage: "in_flight", rule: -1 },
  { stage: "in_flight", rule: 1 },
];

/**
 * Generates ACH transfers one at a time, fast enough for a million. Creation times advance with the index (evenly
 * spread over the history, jittered), so a large set lands in the table roughly in creation order: a page of the
 * newest-first list then reads neighbouring rows, and the created_at index is built from nearly sorted input.
 */
export class AchGenerator {
  private readonly originators: string[];

  constructor(
    private readonly rng: SeededRandom,
    private readonly now: Date,
    private readonly world: SeedWorld,
    /** Counterparties with an ach section, oldest first. */
    private readonly counterparties: readonly CounterpartyRow[],
    private readonly calendar: CalendarCache,
    /** How many transfers the set will hold. */
    private readonly count: number,
  ) {
    this.originators = world.orgIds.map((_, i) => `${businessNameWords[(i * 3) % businessNameWords.length]} Payments Inc`);
  }

  private randomPlan(createdAt: Date): AchPlan {
    const rng = this.rng;
    const rule = rng.weighted<number>([
      [-1, 90],
      [0, 2],
      [1, 1],
      [2, 1],
      [3, 1],
      [achRuleIndex("error"), 2],
      [achRuleIndex("canceled"), 2],
    ]);
    if (this.now.getTime() - createdAt.getTime() >= IN_FLIGHT_WINDOW) return { stage: "finished", rule };
    return { stage: rng.chance(0.6) ? "new" : "in_flight", rule: rng.chance(0.5) ? rule : -1 };
  }

  row(index: number, coverage?: AchPlan): AchRow {
    const rng = this.rng;
    const now = this.now;
    const history = HISTORY_DAYS * DAY;
    const createdAt = coverage
      ? createdAtFor(rng, now, coverage.stage)
      : wholeSeconds(now.getTime() - history + ((index + rng.next()) * history) / this.count);
    const plan = coverage ?? this.randomPlan(createdAt);
    const rule = achRules[plan.rule];
    // A transfer canceled or rejected by the operator never got as far as processing.
    const stage = plan.stage === "in_flight" && (rule?.outcome.status === "canceled" || rule?.outcome.status === "error") ? "new" : plan.stage;
    const outcome = rule?.outcome ?? { status: "sent" as const };
    const status = stage === "new" ? "pending" : stage === "in_flight" ? "processing" : outcome.status;
    const service = rng.chance(0.25) ? "sameday" : "standard";
    const effectiveDate = this.calendar.effectiveDate(createdAt, service);
    const settles = status !== "canceled" && status !== "error";
    return {
      id: id(rng, "ach_"),
      account_id: rng.pick(this.world.accountIds),
      counterparty_id: pickCreatedBefore(rng, this.counterparties, createdAt).id,
      amount: amount(rng, rule?.cents),
      description: rng.chance(0.85) ? rng.pick(achDescriptions) : null,
      direction: rng.chance(0.6) ? "credit" : "debit",
      effective_date: effectiveDate,
      error: stage === "finished" && "error" in outcome ? outcome.error : null,
      originator_name: rng.chance(0.8) ? rng.pick(this.originators) : null,
      scheduled_settlement: settles ? this.calendar.achScheduledSettlement(effectiveDate, service) : null,
      sec_code: rng.weighted([
        ["ppd", 6],
        ["ccd", 3],
        ["web", 1],
      ] as const),
      service,
      status,
      userdata: rng.chance(0.2) ? { invoice: `INV-${rng.digits(6)}` } : null,
      org_id: rng.chance(0.9) ? rng.pick(this.world.orgIds) : null,
      trace_number: `${TRACE_PREFIX}${String((index + 1) % 10_000_000).padStart(7, "0")}`,
      created_at: createdAt,
      updated_at: stage === "new" ? createdAt : laterInstant(rng, createdAt, now, stage === "in_flight" ? 30 * MINUTE : 3 * DAY),
    };
  }
}

type NetworkTransferPlan = { stage: Stage; rule: number; v2CrossBank?: boolean };

/**
 * Network transfers: v1 and v2, same-bank and cross-bank; v2 cross-bank transfers that were sent carry balanced_at
 * (their balancing wire). Failures and cancellations carry their magic value (an amount's cents or "FAIL").
 */
export function generateNetworkTransfers(
  rng: SeededRandom,
  now: Date,
  world: SeedWorld,
  calendar: CalendarCache,
  count: number,
): NetworkTransferRow[] {
  const coverage: NetworkTransferPlan[] = [
    ...networkTransferRules.map((_, rule) => ({ stage: "finished" as const, rule })),
    { stage: "finished", rule: -1, v2CrossBank: true },
    { stage: "new", rule: -1, v2CrossBank: true },
    { stage: "new", rule: -1 },
    { stage: "new", rule: 0 },
    { stage: "new", rule: 1 },
    { stage: "new", rule: networkTransferRules.findIndex((rule) => rule.outcome.status === "canceled") },
  ];
  return Array.from({ length: count }, (_, index): NetworkTransferRow => {
    const plan: NetworkTransferPlan = coverage[index] ?? {
      stage: rng.chance(0.03) ? "new" : "finished",
      rule: rng.weighted<number>([
        [-1, 92],
        [0, 2],
        [1, 2],
        [2, 2],
        [3, 2],
      ]),
    };
    const rule = networkTransferRules[plan.rule];
    const createdAt = createdAtFor(rng, now, plan.stage);
    const outcome = rule?.outcome ?? { status: "sent" as const };
    const status = plan.stage === "finished" ? outcome.status : "pending";
    const version = plan.v2CrossBank || rng.chance(0.5) ? "v2" : "v1";
    const crossBank = plan.v2CrossBank || rng.chance(0.35);
    const settlement = calendar.estimatedSettlement(createdAt);
    // The one network transfer rule not about the amount is the FAIL description.
    const failByDescription = rule !== undefined && rule.cents === undefined;
    const description = failByDescription
      ? `FAIL test: ${rng.pick(transferDescriptions).toLowerCase()}`
      : rng.chance(0.8)
        ? rng.pick(transferDescriptions)
        : null;
    const updatedAt = status === "pending" ? createdAt : laterInstant(rng, settlement, now, 10 * MINUTE);
    const [fromAccount, toAccount] = rng.sample(world.accountIds, 2) as [string, string];
    return {
      id: id(rng, "nt_"),
      amount: amount(rng, rule?.cents),
      cross_bank: crossBank,
      description,
      estimated_settlement_at: settlement,
      from_account_id: fromAccount,
      to_account_id: toAccount,
      status,
      userdata: rng.chance(0.3) ? { ticket: `OPS-${rng.digits(4)}` } : null,
      error: status === "error" && "error" in outcome ? outcome.error : null,
      org_id: rng.chance(0.9) ? rng.pick(world.orgIds) : null,
      version,
      // The balancing wire of a cross-bank v2 transfer goes out when the transfer is sent.
      balanced_at: version === "v2" && crossBank && status === "sent" ? updatedAt : null,
      bankdata: rng.chance(0.3) ? { core_reference: `CR${rng.digits(10)}` } : null,
      created_at: createdAt,
      updated_at: updatedAt,
    };
  });
}

type FednowPlan = { stage: Stage; type: "credit" | "debit"; rule: number; external?: "pending" | "processing" };

/**
 * Instant payments: credits (incoming) end done, debits (outgoing) end sent with external_status; every status and
 * every external status present, rejections with their reason. Recent ones are left moving.
 */
export function generateFednowPayments(rng: SeededRandom, now: Date, world: SeedWorld, calendar: CalendarCache, count: number): FednowRow[] {
  const errorRule = fednowRules.findIndex((rule) => rule.outcome.status === "error");
  const coverage: FednowPlan[] = [
    ...fednowRules.map((_, rule) => ({ stage: "finished" as const, type: "debit" as const, rule })),
    { stage: "finished", type: "credit", rule: -1 },
    { stage: "finished", type: "debit", rule: -1 },
    { stage: "finished", type: "credit", rule: errorRule },
    { stage: "new", type: "credit", rule: -1 },
    { stage: "new", type: "debit", rule: 0 },
    { stage: "in_flight", type: "debit", rule: -1 },
    { stage: "in_flight", type: "credit", rule: errorRule },
    { stage: "finished", type: "debit", rule: -1, external: "pending" },
    { stage: "finished", type: "debit", rule: 2, external: "processing" },
  ];
  const ids: string[] = [];
  return Array.from({ length: count }, (_, index): FednowRow => {
    const plan: FednowPlan = coverage[index] ?? {
      stage: rng.chance(0.03) ? "new" : "finished",
      type: rng.chance(0.5) ? "credit" : "debit",
      rule: rng.weighted<number>([
        [-1, 90],
        [0, 2],
        [1, 2],
        [2, 2],
        [3, 2],
        [errorRule, 2],
      ]),
    };
    const rule = fednowRules[plan.rule];
    const createdAt = createdAtFor(rng, now, plan.external ? "in_flight" : plan.stage);
    const outcome = rule?.outcome ?? { status: "settled" as const, externalStatus: "done" as const, externalRejectReason: null };
    const finished = plan.stage === "finished";
    const settled = outcome.status === "settled";
    const status = !finished ? (plan.stage === "new" ? "pending" : "processing") : !settled ? "error" : plan.type === "credit" ? "done" : "sent";
    const externalStatus = status === "sent" && settled ? (plan.external ?? outcome.externalStatus) : null;
    const counterpartyName = personName(rng);
    const [firstEight] = rng.pick(banks);
    const paymentId = `${calendar.bankDate(createdAt).replaceAll("-", "")}${routingNumber(firstEight)}${rng.digits(10)}`;
    const row: FednowRow = {
      id: id(rng, "fednow_"),
      account_id: rng.pick(world.accountIds),
      amount: amount(rng, rule?.cents),
      bank_id: rng.pick(world.bankIds),
      org_id: rng.pick(world.orgIds),
      currency: "USD",
      description: rng.chance(0.7) ? rng.pick(["Invoice payment", "Rent", "Contractor payout", "Refund", "Loan disbursement"]) : null,
      memo: rng.chance(0.4) ? `Ref ${rng.digits(8)}` : null,
      error: status === "error" && "error" in outcome ? outcome.error : null,
      external_account_number: rng.digits(rng.int(9, 12)),
      external_name: `${counterpartyName.first} ${counterpartyName.last}`,
      external_routing_number: routingNumber(firstEight),
      external_status: externalStatus,
      external_reject_reason: externalStatus === "rejected" && settled ? outcome.externalRejectReason : null,
      fed_settlement_date: businessDayOnOrAfter(calendar.bankDate(createdAt)),
      originator_name:
        plan.type === "debit"
          ? `${rng.pick(businessNameWords)} Treasury LLC`
          : rng.chance(0.8)
            ? `${counterpartyName.first} ${counterpartyName.last}`
            : null,
      payment_id: paymentId,
      payment_type: plan.type,
      related_fednow_ids: ids.length > 0 && rng.chance(0.05) ? [rng.pick(ids)] : [],
      security_context: {
        device_id: `dev-${rng.token(16)}`,
        ip_address: `${rng.pick(["198.51.100", "203.0.113", "192.0.2"])}.${rng.int(1, 254)}`,
        user_agent: rng.pick(userAgents),
      },
      status,
      created_at: createdAt,
      updated_at:
        status === "pending" ? createdAt : laterInstant(rng, createdAt, now, plan.stage === "finished" && !plan.external ? HOUR : 5 * MINUTE),
    };
    ids.push(row.id);
    return row;
  });
}
