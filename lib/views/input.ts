import { z } from "zod";
import { isStorableText, unstorableTextMessage } from "@/lib/contract/json-text";
import { isResourceName, resources, type ResourceName } from "@/lib/resources";
import { bankParameterNames } from "@/lib/resources/filters";
import { indexFilterNames } from "@/lib/search/index-filters";

/** What a saved view may hold (lib/views/store.ts): a list's filters, its page size, and its visible columns. */
export const maxViewNameLength = 60;

function filterNamesOf(resource: ResourceName): Set<string> {
  return new Set([...bankParameterNames(resource).filter((name) => name !== "page_cursor"), ...indexFilterNames]);
}

const jsonObject = (field: string) =>
  z.string().transform((text, context) => {
    try {
      const value = JSON.parse(text) as unknown;
      if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // reported below
    }
    context.addIssue({ code: "custom", message: `${field}: expected a JSON object` });
    return z.NEVER;
  });

/** The form a list's "Save view" sends; `query` and `columns` are JSON, as the list holds them. */
export const savedViewInput = z
  .object({
    resource: z.string().refine(isResourceName, { message: "resource: not a list of the console" }),
    name: z
      .string()
      .trim()
      .min(1, { message: "name: give the view a name" })
      .max(maxViewNameLength, { message: `name: at most ${maxViewNameLength} characters` })
      .refine(isStorableText, { message: `name: ${unstorableTextMessage}` }),
    shared: z.enum(["on", "off"], { message: "shared: expected on or off" }).optional(),
    query: jsonObject("query"),
    columns: jsonObject("columns"),
  })
  .superRefine((input, context) => {
    if (!isResourceName(input.resource)) return; // told by the resource's own check
    const resource = input.resource;
    const allowed = filterNamesOf(resource);
    for (const [name, value] of Object.entries(input.query)) {
      if (!allowed.has(name)) context.addIssue({ code: "custom", message: `query: ${name} is not a filter of this list` });
      else if (typeof value !== "string" || value.length > 200)
        context.addIssue({ code: "custom", message: `query: ${name} must be text of at most 200 characters` });
      else if (!isStorableText(value)) context.addIssue({ code: "custom", message: `query: ${name} ${unstorableTextMessage}` });
    }
    const columns = new Set(resources[resource].columns.map((column) => column.key));
    for (const [name, value] of Object.entries(input.columns)) {
      if (!columns.has(name)) context.addIssue({ code: "custom", message: `columns: ${name} is not a column of this list` });
      else if (typeof value !== "boolean") context.addIssue({ code: "custom", message: `columns: ${name} must be true or false` });
    }
  })
  .transform((input) => ({
    resource: input.resource as ResourceName,
    name: input.name,
    shared: input.shared === "on",
    query: input.query as Record<string, string>,
    columns: input.columns as Record<string, boolean>,
  }));

export type SavedViewInput = z.output<typeof savedViewInput>;
