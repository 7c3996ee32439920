import { listedResources, type ListedResource } from "@/lib/contract/operations";
import type { Role } from "@/lib/permissions";
import { seesAllUnmasked, seesUnmasked } from "@/lib/pii";
import type { Visibility } from "./document";

const kinds = Object.keys(listedResources) as ListedResource[];

/** The parts of the search documents a role may match, each with the kinds it may match it in. */
export type Searchable = { visibility: Visibility; kinds: ListedResource[] }[];

/**
 * Which parts of the search documents a role may match, and in which kinds (docs/search.md): never a field it would see
 * masked, by the table the proxy masks with (lib/pii/grants.ts). `public` everywhere; `userdata` where the role sees userdata
 * (every kind for `pii:reveal`, a network transfer's for the roles that edit it); `personal` (every other masked
 * field) only where the role sees every field. A part no kind allows is left out.
 */
export function searchableBy(role: Role): Searchable {
  const parts: Searchable = [
    { visibility: "public", kinds },
    { visibility: "userdata", kinds: kinds.filter((kind) => seesUnmasked(kind, role, "userdata")) },
    { visibility: "personal", kinds: kinds.filter((kind) => seesAllUnmasked(kind, role)) },
  ];
  return parts.filter((part) => part.kinds.length > 0);
}
