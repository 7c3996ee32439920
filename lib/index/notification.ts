import { z } from "zod";
import { resourcePaths, type ResourceName } from "@/lib/contract/names";

/**
 * A notification as the bank sends it (spec, Events): `{event, op, id, url}`. It is never trusted for state: the
 * worker fetches the object by `id` with the console's own credentials. It is checked so that a malformed or
 * inconsistent one is refused (400) before anything is stored. Unknown extra fields are allowed (a bank may add some)
 * and not kept.
 */
const resources = Object.keys(resourcePaths) as [ResourceName, ...ResourceName[]];
const eventPattern = new RegExp(`^(${resources.join("|")})\\.(create|update)$`);

export const bankNotification = z
  .looseObject({
    event: z.string().regex(eventPattern, `expected <resource>.<create|update> with a resource among ${resources.join(", ")}`),
    op: z.enum(["create", "update"], { message: "expected create or update" }),
    id: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, "expected an object id (letters, digits, _ and -, at most 128)"),
    url: z.url({ protocol: /^https?$/, message: "expected an http or https URL" }).max(2048, "at most 2048 characters"),
  })
  .superRefine((value, context) => {
    const [resource, op] = value.event.split(".") as [ResourceName, string];
    if (op !== value.op) context.addIssue({ code: "custom", path: ["op"], message: `does not match event ${value.event}` });
    const path = new URL(value.url).pathname.replace(/\/+$/, "");
    if (!path.endsWith(`/${resourcePaths[resource]}/${value.id}`)) {
      context.addIssue({ code: "custom", path: ["url"], message: `expected the address of ${value.id} (…/${resourcePaths[resource]}/${value.id})` });
    }
  })
  .transform(({ event, op, id, url }) => ({ event, op, id, url, resource: event.split(".")[0] as ResourceName }));

export type BankNotification = z.output<typeof bankNotification>;
