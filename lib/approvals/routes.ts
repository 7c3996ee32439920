import { z } from "zod";
import type { RouteDefinition } from "@/lib/api/route";
import { environments } from "@/lib/credentials/environments";
import { approvalNoteLimit, heldAnswer, isApprovalAnswer } from "./codes";
import type { ApprovalService } from "./service";

/**
 * The approvals' route handlers (docs/approvals.md), built on the one route wrapper: `POST /api/approvals/{id}/approve`
 * and `/reject` (`change:approve`, and the service checks the change's own permission and four-eyes), `/withdraw`
 * (any signed-in staff member; the service lets only the maker), `PUT /api/approvals/settings` (`approvals:configure`;
 * switching production off answers 202 with the request that holds it, like a held bank change).
 */

const idParams = z.strictObject({ id: z.string().regex(/^[1-9][0-9]{0,15}$/, "id: expected a change request number") });
const note = z.string({ error: "note: expected text" }).trim().max(approvalNoteLimit, `note: at most ${approvalNoteLimit} characters`);
const optionalNote = z.strictObject({ note: note.optional() }, { error: 'expected {"note"?: "<text>"}' }).optional();
const requiredNote = z.strictObject(
  { note: note.min(1, "note: a rejection says why") },
  { error: 'expected {"note": "<why it is rejected>"}: a rejection says why' },
);
const settingBody = z.strictObject({
  environment: z.enum(environments, { error: "environment: expected sandbox or production" }),
  required: z.boolean({ error: "required: expected true or false" }),
});

type Params = z.infer<typeof idParams>;

export function approvalRoutes(service: () => ApprovalService) {
  const approve: RouteDefinition<Params, unknown, z.infer<typeof optionalNote>> = {
    permission: "change:approve",
    params: idParams,
    body: optionalNote,
    handle: ({ user, params, body, requestId }) => service().approve(user, Number(params.id), body?.note || null, requestId),
  };
  const reject: RouteDefinition<Params, unknown, z.infer<typeof requiredNote>> = {
    permission: "change:approve",
    params: idParams,
    body: requiredNote,
    handle: ({ user, params, body, requestId }) => service().reject(user, Number(params.id), body.note, requestId),
  };
  const withdraw: RouteDefinition<Params, unknown, z.infer<typeof optionalNote>> = {
    permission: "bank:read",
    params: idParams,
    body: optionalNote,
    handle: ({ user, params, body, requestId }) => service().withdraw(user, Number(params.id), body?.note || null, requestId),
  };
  const setting: RouteDefinition<unknown, unknown, z.infer<typeof settingBody>> = {
    permission: "approvals:configure",
    body: settingBody,
    handle: async ({ user, body, requestId }) => {
      const answer = await service().setRequired(user, body.environment, body.required, requestId);
      return isApprovalAnswer(answer) ? heldAnswer(answer) : answer;
    },
  };
  return { approve, reject, withdraw, setting } as Record<"approve" | "reject" | "withdraw" | "setting", RouteDefinition>;
}
