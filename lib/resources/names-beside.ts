import { isMaskedText, valueAt } from "@/lib/format";
import type { Field, ResourceName } from "./types";

/** Kinds people know by a name: shown beside a link to one of them, the id staying the link and the copy target. */
const namedKinds: ReadonlySet<ResourceName> = new Set<ResourceName>(["counterparty", "card", "person_application", "business_application"]);

/** Whether this field links to an object of a named kind, so its name is shown beside the id. */
export function showsNameBeside(field: Field): boolean {
  return field.format === "id" && field.link !== undefined && "detail" in field.link && namedKinds.has(field.link.detail);
}

/** The ids these rows show a name beside (each once), for the server to look their names up with the rows. */
export function idsNamedIn(columns: Field[], rows: unknown[]): string[] {
  const named = columns.filter(showsNameBeside);
  const ids = new Set<string>();
  for (const row of rows)
    for (const field of named) {
      const value = valueAt(row, field.key);
      if (typeof value === "string" && value !== "" && !isMaskedText(value)) ids.add(value);
    }
  return [...ids];
}
