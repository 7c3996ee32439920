import { z } from "zod";
import { idKindOf, idPrefixes, isWellFormedId, resourcePaths, type ResourceName } from "@/lib/contract/names";

/**
 * A notification as the bank sends it (spec, Events): `{event, op, id, url}`. It is never trusted for state: the
 * worker fetches the object by `id` with the console's own credentials. It is checked so that a malformed or
 * inconsistent one is refused (400) before anything is stored. Unknown extra fields are allowed (a bank may add some)
 * and not kept.
 */
const resources = Object.keys(resourcePaths) as [ResourceName, ...ResourceName[]];
const eventPattern = new RegExp(`^(${resources.join("|")})\\.(create|update)$`);

/**
 * Why `id` cannot name an object of `resource`, or undefined when it can. An id's kind is its prefix (spec: "Ids carry a
 * type prefix"), and the bank's ids are the contract's (`idOf`: the prefix, then 1 to 64 letters, digits, `_` or `-`,
 * well within the 100 characters the bank accepts in a path). An event naming an id of another kind would make the
 * worker fetch that id under the wrong path, get a 404 and take it for a deletion.
 */
export function idMismatch(resource: ResourceName, id: string): string | undefined {
  if (isWellFormedId(resource, id)) return undefined;
  const kind = idKindOf(id);
  if (kind && kind !== resource) return `an id of kind ${kind} (${idPrefixes[kind]}), not ${resource}`;
  return `expected an id of kind ${resource}: ${idPrefixes[resource]} then 1 to 64 letters, digits, _ or -`;
}

export const bankNotification = z
  .looseObject({
    event: z.string().regex(eventPattern, `expected <resource>.<create|update> with a resource among ${resources.join(", ")}`),
    op: z.enum(["create", "update"], { message: "expected create or update" }),
    id: z.string().max(100, "at most 100 characters (the bank's limit for an id)"),
    url: z.url({ protocol: /^https?$/, message: "expected an http or https URL" }).max(2048, "at most 2048 characters"),
  })
  .superRefine((value, context) => {
    const [resource, op] = value.event.split(".") as [ResourceName, string];
    if (op !== value.op) context.addIssue({ code: "custom", path: ["op"], message: `does not match event ${value.event}` });
    const mismatch = idMismatch(resource, value.id);
    if (mismatch) return context.addIssue({ code: "custom", path: ["id"], message: mismatch });
    const path = new URL(value.url).pathname.replace(/\/+$/, "");
    if (!path.endsWith(`/${resourcePaths[resource]}/${value.id}`)) {
      context.addIssue({ code: "custom", path: ["url"], message: `expected the address of ${value.id} (…/${resourcePaths[resource]}/${value.id})` });
    }
  })
  .transform(({ event, op, id, url }) => ({ event, op, id, url, resource: event.split(".")[0] as ResourceName }));

export type BankNotification = z.output<typeof bankNotification>;
