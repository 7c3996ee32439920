import { z } from "zod";
import { isStorableText, unstorableTextMessage } from "@/lib/contract/json-text";
import { isResourceName, resources, type ResourceName } from "@/lib/resources";
import { bankParameterNames } from "@/lib/resources/filters";
import { parseListSort, sortParameter } from "@/lib/resources/sorting";
import { indexFilterNames } from "@/lib/search/index-filters";
import { columnWidthBounds } from "./layout";

/**
 * What a saved view may hold (lib/views/store.ts): a list's filters, sort and page size, its visible columns, and
 * their order and widths.
 */
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

/** The form a list's "Save view" sends; `query`, `columns` and `layout` are JSON, as the list holds them. */
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
    layout: jsonObject("layout").optional(),
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
      else if (name === sortParameter) {
        const sort = parseListSort(resources[resource].columns, value);
        if (!sort.ok) context.addIssue({ code: "custom", message: `query: ${sort.error}` });
      }
    }
    const columns = new Set(resources[resource].columns.map((column) => column.key));
    for (const [name, value] of Object.entries(input.columns)) {
      if (!columns.has(name)) context.addIssue({ code: "custom", message: `columns: ${name} is not a column of this list` });
      else if (typeof value !== "boolean") context.addIssue({ code: "custom", message: `columns: ${name} must be true or false` });
    }
    for (const problem of layoutProblems(columns, input.layout ?? {})) context.addIssue({ code: "custom", message: `layout: ${problem}` });
  })
  .transform((input) => ({
    resource: input.resource as ResourceName,
    name: input.name,
    shared: input.shared === "on",
    query: input.query as Record<string, string>,
    columns: input.columns as Record<string, boolean>,
    layout: (input.layout ?? {}) as { order?: string[]; widths?: Record<string, number> },
  }));

/** What is wrong with a view's `layout` ({order, widths}) for a list with these columns, each in words. */
function layoutProblems(columns: Set<string>, layout: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const name of Object.keys(layout)) if (name !== "order" && name !== "widths") problems.push(`${name} is not part of a layout (order, widths)`);
  const { order, widths } = layout;
  if (order !== undefined) {
    if (!Array.isArray(order) || order.some((key) => typeof key !== "string")) problems.push("order must be a list of column names");
    else {
      for (const key of order as string[]) if (!columns.has(key)) problems.push(`order: ${key} is not a column of this list`);
      if (new Set(order).size !== order.length) problems.push("order names a column twice");
    }
  }
  if (widths !== undefined) {
    if (!widths || typeof widths !== "object" || Array.isArray(widths)) problems.push("widths must map column names to pixels");
    else
      for (const [key, width] of Object.entries(widths)) {
        if (!columns.has(key)) problems.push(`widths: ${key} is not a column of this list`);
        else if (typeof width !== "number" || !Number.isInteger(width) || width < columnWidthBounds.min || width > columnWidthBounds.max)
          problems.push(`widths: ${key} must be a whole number of pixels from ${columnWidthBounds.min} to ${columnWidthBounds.max}`);
      }
  }
  return problems;
}

export type SavedViewInput = z.output<typeof savedViewInput>;
