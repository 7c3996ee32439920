import { Ajv, type ValidateFunction } from "ajv";
import { z } from "zod";

/**
 * A yes/no check of a value against a contract schema that reads the value without copying it: the JSON Schema of
 * the zod schema (the same one the OpenAPI document is built from) compiled by Ajv. zod's own parse builds a copy of
 * every object it checks, which for a 50-row page was the console's largest cost per list request after Next.js
 * itself (docs/benchmarks.md). zod stays the contract: a "no" is explained by zod's own messages, and wherever the
 * JSON Schema cannot say what zod checks (a refinement such as "a real calendar date"), that node is checked by zod.
 *
 * Exactness is tested against zod on random and mutated values (compiled-check.test.ts).
 */
export type CompiledCheck = (value: unknown) => boolean;

/** The keyword that hands one node back to zod: its value is an index into the schemas kept below. */
const zodKeyword = "x-zod-check";

function hasRefinement(schema: z.core.$ZodType): boolean {
  return (schema._zod.def.checks ?? []).some((check) => check._zod.def.check === "custom");
}

function hasPatternFlags(schema: z.core.$ZodType): boolean {
  // A JSON Schema pattern carries no flags; a zod regex with flags (/i, /u) is left to zod.
  return (schema._zod.def.checks ?? []).some((check) => {
    const pattern = (check._zod.def as { pattern?: RegExp }).pattern;
    return pattern instanceof RegExp && pattern.flags !== "";
  });
}

export function compileCheck(schema: z.ZodType): CompiledCheck {
  const delegated: z.core.$ZodType[] = [];
  const jsonSchema = z.toJSONSchema(schema, {
    target: "draft-7",
    io: "output",
    // Anything JSON Schema cannot express throws here, when an operation's check is first compiled, never silently.
    unrepresentable: "throw",
    // Each named schema inline: its refinements are found where it is used.
    reused: "inline",
    cycles: "throw",
    override(context) {
      // Formats (url, email...) are zod's own checks too: Ajv leaves them unchecked (validateFormats: false).
      if (hasRefinement(context.zodSchema) || hasPatternFlags(context.zodSchema) || context.jsonSchema.format !== undefined) {
        context.jsonSchema[zodKeyword] = delegated.push(context.zodSchema) - 1;
      }
    },
  });
  const ajv = new Ajv({
    strict: true,
    strictRequired: false,
    allErrors: false,
    // As zod: lengths in code points ("😀" is 1 long, Ajv's default) and patterns without the u flag.
    unicodeRegExp: false,
    validateFormats: false,
    keywords: [
      {
        keyword: zodKeyword,
        schemaType: "number",
        compile: (index: number) => (data: unknown) => z.safeParse(delegated[index] as z.ZodType, data).success,
      },
    ],
  });
  const validate: ValidateFunction = ajv.compile(jsonSchema);
  return (value) => validate(value) === true;
}
