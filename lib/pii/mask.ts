import { allowlists, soleProprietorAllowlist, type Allowlist, type FieldRule, type MaskedResource } from "./allowlists";
import { maskedValue, type Masker } from "./maskers";

/**
 * Masking one bank object by its allowlist (lib/pii/allowlists.ts), and naming what masking hides for the audit of a
 * reveal. The allowlists are turned once into Maps, the form looked up for every field of every object shown.
 */

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** An allowlist as looked up on the hot path: a Map has no inherited keys, so `constructor` or `__proto__` find no rule. */
type Rule = "show" | Masker | Rules | { each: Rules };
type Rules = Map<string, Rule>;

function toRules(allowlist: Allowlist): Rules {
  const rule = (fieldRule: FieldRule): Rule => {
    if (fieldRule === "show" || typeof fieldRule === "function") return fieldRule;
    if ("each" in fieldRule && typeof fieldRule.each === "object") return { each: toRules(fieldRule.each as Allowlist) };
    return toRules(fieldRule as Allowlist);
  };
  return new Map(Object.entries(allowlist).map(([field, fieldRule]) => [field, rule(fieldRule)]));
}

const rulesByResource = new Map(Object.entries(allowlists).map(([resource, allowlist]) => [resource as MaskedResource, toRules(allowlist)]));

const soleProprietorRules = toRules(soleProprietorAllowlist);

function rulesFor(resource: MaskedResource, object: Record<string, unknown>): Rules {
  if (resource === "business_application" && object.legal_structure === "soleprop") return soleProprietorRules;
  return rulesByResource.get(resource)!;
}

function maskValue(rule: Rule | undefined, value: unknown): unknown {
  if (value === null || value === undefined || rule === "show") return value;
  if (rule === undefined) return maskedValue;
  if (typeof rule === "function") return typeof value === "string" ? rule(value) : maskedValue;
  if (rule instanceof Map) return isPlainObject(value) ? maskObject(rule, value) : maskedValue;
  return Array.isArray(value) ? value.map((item) => maskValue(rule.each, item)) : maskedValue;
}

// In place and a plain loop: this runs for every object of every page the console shows, and a copy cost more than
// twice the time (50 person applications: 75 µs in place, 180 µs copied; docs/benchmarks.md).
function maskObject(rules: Rules, object: Record<string, unknown>): Record<string, unknown> {
  for (const field of Object.keys(object)) {
    const rule = rules.get(field);
    if (rule === "show") continue;
    const value = object[field];
    const shown = maskValue(rule, value);
    if (shown === value) continue;
    // A `__proto__` field from the bank's JSON is redefined, never assigned, so it stays a field and never a prototype.
    if (field === "__proto__") Object.defineProperty(object, field, { value: shown, enumerable: true, writable: true, configurable: true });
    else object[field] = shown;
  }
  return object;
}

/**
 * One bank object of `resource` as every GET answer and export shows it: allowlisted fields in full or partly masked,
 * everything else `[masked]`. Masks IN PLACE and returns the same object: callers pass the answer they just parsed
 * from the bank, which nothing else holds (a copy per object was the largest cost of showing a masked page).
 */
export function maskForViewer(resource: MaskedResource, object: Record<string, unknown>): Record<string, unknown> {
  return maskObject(rulesFor(resource, object), object);
}

/** Whether `field` of `resource` is masked, wholly or partly, for a role granted nothing (a viewer). */
export const isMaskedField = (resource: MaskedResource, field: string) => rulesByResource.get(resource)!.get(field) !== "show";

/**
 * The fields masking hides in `object` (dotted paths, array items as `[n]`): what a reveal of it shows. For the audit
 * record of a reveal; the object is not changed.
 */
export function maskedFields(resource: MaskedResource, object: Record<string, unknown>): string[] {
  const masked = maskForViewer(resource, structuredClone(object));
  const found: string[] = [];
  const walk = (shown: unknown, original: unknown, path: string) => {
    if (shown === original) return;
    if (isPlainObject(shown) && isPlainObject(original)) {
      for (const key of Object.keys(original)) walk(shown[key], original[key], path ? `${path}.${key}` : key);
    } else if (Array.isArray(shown) && Array.isArray(original)) {
      original.forEach((item, index) => walk(shown[index], item, `${path}[${index}]`));
    } else found.push(path);
  };
  walk(masked, object, "");
  return found;
}
