import { legalStructures } from "@/lib/contract";
import type { businessApplications, personApplications } from "@/sandbox/db/resources-schema";
import type { SeededRandom } from "./random";
import { DAY, HISTORY_DAYS, emailFor, id, laterInstant, pastInstant, personName, phoneNumber, usAddress, type SeedWorld } from "./shared";
import {
  businessKinds,
  businessNameWords,
  foreignCitizenships,
  foreignJurisdictions,
  legalSuffixes,
  middleNames,
  naicsSectors,
  occupations,
  otherIndustries,
  ownerTitles,
} from "./vocabulary";

export type PersonApplicationRow = typeof personApplications.$inferInsert & { created_at: Date };
export type BusinessApplicationRow = typeof businessApplications.$inferInsert;

const YEAR = 365.25 * DAY;

/** Person applications; about three in four succeeded and carry the id of the person they created. */
export function generatePersonApplications(rng: SeededRandom, now: Date, count: number): PersonApplicationRow[] {
  return Array.from({ length: count }, () => {
    const createdAt = pastInstant(rng, now, HISTORY_DAYS * DAY);
    const { first, last } = personName(rng);
    const citizenship = rng.chance(0.85) ? "US" : rng.pick(foreignCitizenships);
    const idNumber = identification(rng, citizenship);
    const home = usAddress(rng);
    return {
      id: id(rng, "apsn_"),
      bankdata: rng.chance(0.3) ? { kyc_vendor: rng.pick(["alloy", "socure"]), risk_score: rng.int(1, 99) } : null,
      citizenship,
      date_of_birth: new Date(now.getTime() - rng.int(18, 85) * YEAR - rng.int(0, 364) * DAY).toISOString().slice(0, 10),
      email_address: emailFor(rng, first, last),
      first_name: first,
      middle_name: rng.chance(0.4) ? rng.pick(middleNames) : null,
      last_name: last,
      identification_number: idNumber?.number ?? null,
      identification_number_type: idNumber?.type ?? null,
      occupation: rng.pick(occupations),
      person_id: rng.chance(0.75) ? id(rng, "psn_") : null,
      phone_number: phoneNumber(rng),
      physical_address: home,
      userdata: rng.chance(0.2) ? { referral: rng.pick(["web", "branch", "partner"]) } : null,
      document_ids: Array.from({ length: rng.int(0, 3) }, () => id(rng, "doc_")),
      mailing_address: rng.chance(0.2) ? usAddress(rng) : null,
      secondary_email_address: rng.chance(0.15) ? emailFor(rng, first, last) : null,
      created_at: createdAt,
      updated_at: laterInstant(rng, createdAt, now, 3 * DAY),
    };
  });
}

/** An SSN-shaped number in the never-issued 9xx area for US citizens, a passport number otherwise; sometimes none. */
function identification(rng: SeededRandom, citizenship: string): { number: string; type: string } | undefined {
  if (rng.chance(0.1)) return undefined;
  if (citizenship === "US") return { number: `9${rng.digits(2)}-${rng.digits(2)}-${rng.digits(4)}`, type: "ssn" };
  return { number: `${citizenship}${rng.digits(9)}`, type: "passport" };
}

/**
 * Business applications: every legal structure, NAICS sectors with their official titles (sector 81 sometimes with
 * an "Other: " industry description, as the spec asks), beneficial owners drawn from the person applications with
 * ownership adding up to at most 100% and at least one signer and one control person, and a few subsidiaries whose
 * parent is an earlier business.
 */
export function generateBusinessApplications(
  rng: SeededRandom,
  now: Date,
  world: SeedWorld,
  people: readonly PersonApplicationRow[],
  count: number,
): BusinessApplicationRow[] {
  // Ids of the businesses earlier applications created: a subsidiary names one as its parent.
  const earlierBusinessIds: string[] = [];
  return Array.from({ length: count }, (_, index) => {
    const createdAt = pastInstant(rng, now, HISTORY_DAYS * DAY);
    const legalStructure = index < legalStructures.length ? legalStructures[index]! : rng.pick(legalStructures);
    const [naics, sectorTitle] = rng.pick(naicsSectors);
    const naicsDescription = naics === "81" && rng.chance(0.5) ? `Other: ${rng.pick(otherIndustries)}` : sectorTitle;
    const baseName = `${rng.pick(businessNameWords)} ${rng.pick(businessKinds[naics] ?? ["Services"])}`;
    const name = [baseName, legalSuffixes[legalStructure]].filter(Boolean).join(" ");
    const foreign = legalStructure === "foreign_entity";
    const slug = baseName.toLowerCase().replace(/[^a-z0-9]+/g, "-");
    const ein = `${rng.digits(2)}-${rng.digits(7)}`;
    const physical = usAddress(rng);
    const publicCompany = legalStructure === "ccorp" || legalStructure === "corp";
    const parentBusinesses = earlierBusinessIds.length > 0 && rng.chance(0.15) ? [rng.pick(earlierBusinessIds)] : [];
    earlierBusinessIds.push(id(rng, "bus_"));
    return {
      id: id(rng, "abus_"),
      bank_id: rng.pick(world.bankIds),
      bankdata: rng.chance(0.3) ? { relationship_manager: rng.pick(["R. Alvarez", "K. Osei", "M. Chen"]) } : null,
      dba: rng.chance(0.3) ? `${rng.pick(businessNameWords)} ${rng.pick(["Co", "Shop", "Studio", "Works"])}` : null,
      description: `${sectorTitle.split(",")[0]} business based in ${physical.city}, ${physical.state}.`,
      established_on: new Date(createdAt.getTime() - rng.int(1, 60) * YEAR).toISOString().slice(0, 10),
      identification_number: foreign ? `${rng.pick(["CA", "GB", "AU", "DE"])}${rng.digits(9)}` : ein,
      identification_number_type: foreign ? "foreign_registration" : "ein",
      incorporation_state: foreign ? rng.pick(foreignJurisdictions) : rng.pick(["DE", "DE", "NY", "CA", "TX", physical.state]),
      legal_structure: legalStructure,
      mailing_address: rng.chance(0.7) ? physical : usAddress(rng),
      physical_address: physical,
      naics,
      naics_description: naicsDescription,
      name,
      person_applications: beneficialOwners(rng, people, legalStructure),
      phone_number: phoneNumber(rng),
      tin: ein,
      urls: rng.chance(0.85) ? [`https://${slug}.example`, ...(rng.chance(0.2) ? [`https://shop.${slug}.example`] : [])] : [],
      userdata: rng.chance(0.2) ? { source: rng.pick(["partner_api", "branch", "web"]) } : null,
      document_ids: Array.from({ length: rng.int(1, 4) }, () => id(rng, "doc_")),
      publicly_traded: publicCompany
        ? rng.weighted([
            [true, 1],
            [false, 2],
            [null, 1],
          ] as const)
        : rng.chance(0.8)
          ? false
          : null,
      org_id: rng.chance(0.9) ? rng.pick(world.orgIds) : null,
      parent_businesses: parentBusinesses,
      created_at: createdAt,
      updated_at: laterInstant(rng, createdAt, now, 5 * DAY),
    };
  });
}

/** One to four owners whose percentages add up to at most 100; the first signs, one is the control person. */
function beneficialOwners(rng: SeededRandom, people: readonly PersonApplicationRow[], legalStructure: string) {
  const owners = rng.sample(people, legalStructure === "soleprop" ? 1 : rng.int(1, 4));
  let remaining = 100;
  return owners.map((owner, index) => {
    const last = index === owners.length - 1;
    const share = legalStructure === "soleprop" ? 100 : last ? rng.int(0, remaining) : rng.int(Math.min(remaining, 10), Math.min(remaining, 60));
    remaining -= share;
    const roles = [index === 0 ? "signer" : undefined, index === owners.length - 1 || index === 0 ? "control_person" : undefined];
    return {
      id: owner.id,
      ownership_percentage: share,
      roles: roles.filter((role): role is string => role !== undefined),
      title: legalStructure === "soleprop" ? "Owner" : rng.pick(ownerTitles),
    };
  });
}
