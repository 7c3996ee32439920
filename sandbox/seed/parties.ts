import {
  cardStatuses,
  digitalWalletTokenStatuses,
  thirdTokenRequestor,
  tokenRequestors,
  tokenStatusForFulfillment,
  type DigitalWalletTokenStatus,
  type FulfillmentStatus,
} from "@/lib/contract";
import type { cards, counterparties, depositSweeps, digitalWalletTokens } from "@/sandbox/db/resources-schema";
import { cardIdSuffixes, cardRules } from "@/sandbox/lifecycle/magic";
import type { SeededRandom } from "./random";
import { DAY, HISTORY_DAYS, accountNumber, id, laterInstant, pastInstant, personName, type SeedWorld } from "./shared";
import { banks, businessNameWords, legalSuffixes, routingNumber, sweepNetworks } from "./vocabulary";

export type CounterpartyRow = typeof counterparties.$inferInsert & { created_at: Date };
export type DepositSweepRow = typeof depositSweeps.$inferInsert;
export type CardRow = typeof cards.$inferInsert & { created_at: Date };
export type DigitalWalletTokenRow = typeof digitalWalletTokens.$inferInsert;

/** Sorts rows oldest first, so that a later object can pick among the ones that existed before it. */
export function oldestFirst<T extends { created_at: Date; id: string }>(rows: T[]): T[] {
  return rows.sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.id.localeCompare(b.id));
}

/** A random row created before `instant` (rows sorted oldest first; the oldest must predate every caller). */
export function pickCreatedBefore<T extends { created_at: Date }>(rng: SeededRandom, rows: readonly T[], instant: Date): T {
  const time = instant.getTime();
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((rows[middle] as T).created_at.getTime() <= time) low = middle + 1;
    else high = middle;
  }
  return rows[rng.int(0, Math.max(0, low - 1))] as T;
}

/**
 * Counterparties: most have an ach section (ACH transfers may only use those), some also a wire section, a few are
 * wire-only. The first few predate the 90-day history so that every transfer has one to pick.
 */
export function generateCounterparties(rng: SeededRandom, now: Date, count: number): CounterpartyRow[] {
  const rows = Array.from({ length: count }, (_, index): CounterpartyRow => {
    const createdAt = pastInstant(rng, now, index < 8 ? (HISTORY_DAYS + 30) * DAY : HISTORY_DAYS * DAY, index < 8 ? (HISTORY_DAYS + 1) * DAY : 0);
    const person = personName(rng);
    const name = rng.chance(0.5)
      ? `${person.first} ${person.last}`
      : `${rng.pick(businessNameWords)} ${rng.pick(["Supply", "Partners", "Logistics", "Foods", "Media"])} ${legalSuffixes[rng.pick(["llc", "ccorp", "corp"])]}`;
    const [firstEight, bankName] = rng.pick(banks);
    const hasAch = index % 10 !== 9;
    const hasWire = !hasAch || rng.chance(0.3);
    return {
      id: id(rng, "cp_"),
      name,
      ach: hasAch
        ? {
            account_number: accountNumber(rng),
            account_type: rng.weighted([
              ["checking", 4],
              ["savings", 1],
            ] as const),
            routing_number: routingNumber(firstEight),
          }
        : null,
      wire: hasWire ? { account_number: accountNumber(rng), routing_number: routingNumber(firstEight), bank_name: bankName } : null,
      userdata: rng.chance(0.3) ? { vendor_ref: `V-${rng.digits(5)}` } : null,
      created_at: createdAt,
      updated_at: laterInstant(rng, createdAt, now, 5 * DAY),
    };
  });
  return oldestFirst(rows);
}

export function generateDepositSweeps(
  rng: SeededRandom,
  now: Date,
  world: SeedWorld,
  customers: ReadonlyArray<{ person_id: string; email: string }>,
  count: number,
): DepositSweepRow[] {
  return Array.from({ length: count }, () => {
    const createdAt = pastInstant(rng, now, HISTORY_DAYS * DAY);
    const customer = rng.pick(customers);
    const optedIn = rng.chance(0.8);
    const threshold = rng.pick([100_000, 150_000, 250_000, 500_000]);
    return {
      id: id(rng, "dsa_"),
      account_id: rng.pick(world.accountIds),
      bank_id: rng.pick(world.bankIds),
      customer_id: customer.person_id,
      customer_email: customer.email,
      customer_identifier: `***-**-${rng.digits(4)}`,
      network: rng.pick(sweepNetworks),
      network_account_id: `${rng.pick(["ICS", "CDR", "FICA", "RT"])}-${rng.digits(8)}`,
      opted_in: optedIn,
      sweep_balance: optedIn ? `${rng.int(0, 2_000_000)}.${rng.digits(2)}` : "0.00",
      threshold_balance: `${threshold}.00`,
      created_at: createdAt,
      updated_at: laterInstant(rng, createdAt, now, 30 * DAY),
    };
  });
}

/**
 * Cards: every status present, and one card per magic suffix (see lifecycle/magic.ts) so that provisioning can be
 * forced to each outcome.
 */
export function generateCards(
  rng: SeededRandom,
  now: Date,
  world: SeedWorld,
  holders: ReadonlyArray<{ person_id: string; first: string; last: string }>,
  count: number,
): CardRow[] {
  const magicSuffixes = cardIdSuffixes.map(([suffix]) => suffix);
  const rows = Array.from({ length: count }, (_, index): CardRow => {
    const createdAt = pastInstant(rng, now, HISTORY_DAYS * DAY, DAY);
    const holder = rng.pick(holders);
    const status =
      index < cardStatuses.length
        ? cardStatuses[index]!
        : rng.weighted([
            ["active", 12],
            ["unactivated", 2],
            ["locked", 1],
            ["canceled", 1],
          ] as const);
    const expiry = new Date(createdAt.getTime() + rng.int(2, 5) * 365 * DAY);
    return {
      id: id(rng, "card_", index >= count - magicSuffixes.length ? magicSuffixes[index - (count - magicSuffixes.length)] : ""),
      account_id: rng.pick(world.accountIds),
      person_id: holder.person_id,
      cardholder_name: `${holder.first} ${holder.last}`.toUpperCase().slice(0, 26),
      form: rng.weighted([
        ["physical", 2],
        ["virtual", 1],
      ] as const),
      last_four: rng.digits(4),
      expiration_month: String(expiry.getUTCMonth() + 1).padStart(2, "0"),
      expiration_year: String(expiry.getUTCFullYear()),
      status,
      userdata: rng.chance(0.2) ? { program: rng.pick(["corporate", "consumer", "fleet"]) } : null,
      created_at: createdAt,
      updated_at: laterInstant(rng, createdAt, now, 20 * DAY),
    };
  });
  return oldestFirst(rows);
}

const requestors = [
  { name: "APPLE_PAY", id: tokenRequestors.APPLE_PAY },
  { name: "GOOGLE_PAY", id: tokenRequestors.GOOGLE_PAY },
  thirdTokenRequestor,
];

/** Status after provisioning: the fulfillment's own, or for provisioned tokens, their later life. */
function tokenStatus(rng: SeededRandom, fulfillment: FulfillmentStatus): DigitalWalletTokenStatus {
  if (fulfillment !== "provisioned") return tokenStatusForFulfillment[fulfillment];
  return rng.weighted([
    ["active", 6],
    ["suspended", 1],
    ["deactivated", 1],
  ] as const);
}

/** Digital wallet tokens: every status present; a card with a magic suffix has a token with the status it forces. */
export function generateDigitalWalletTokens(rng: SeededRandom, now: Date, cardRows: readonly CardRow[], count: number): DigitalWalletTokenRow[] {
  const statusesToCover = [...digitalWalletTokenStatuses];
  const magicCards = cardRows.flatMap((card) => {
    const rule = cardRules.find((candidate) => candidate.matches({ cardId: card.id }));
    return rule ? [{ card, fulfillment: rule.outcome }] : [];
  });
  // A magic card's tokens all show the status its suffix forces: only its own token is generated for it.
  const ordinaryCards = cardRows.filter((card) => !magicCards.some((magic) => magic.card === card));
  return Array.from({ length: count }, (_, index) => {
    const forced = magicCards[index];
    const card = forced?.card ?? rng.pick(ordinaryCards);
    const wanted = forced ? undefined : statusesToCover.shift();
    const fulfillment: FulfillmentStatus =
      forced?.fulfillment ??
      (wanted
        ? fulfillmentFor(wanted)
        : rng.weighted([
            ["provisioned", 10],
            ["decision_green", 2],
            ["decision_yellow", 1],
            ["decision_red", 1],
            ["rejected", 1],
          ] as const));
    const status = wanted ?? tokenStatus(rng, fulfillment);
    const createdAt = laterInstant(rng, card.created_at, now, 30 * DAY);
    const requestor = rng.pick(requestors);
    return {
      id: id(rng, "dwt_"),
      card_id: card.id,
      status,
      fulfillment_status: fulfillment,
      message_type: "provisioning",
      token_requestor_name: requestor.name,
      token_requestor_id: requestor.id,
      token_last_four: rng.digits(4),
      created_at: createdAt,
      updated_at: laterInstant(rng, createdAt, now, 10 * DAY),
    };
  });
}

/** The fulfillment status that leads to a token status (suspended and deactivated tokens were provisioned first). */
function fulfillmentFor(status: DigitalWalletTokenStatus): FulfillmentStatus {
  const direct = (Object.entries(tokenStatusForFulfillment) as Array<[FulfillmentStatus, DigitalWalletTokenStatus]>).find(
    ([, produced]) => produced === status,
  );
  return direct ? direct[0] : "provisioned";
}
