"use client";

import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useConsoleSession } from "@/components/console/providers";
import type { Environment } from "@/lib/credentials/environments";
import { bankApiPath, fetchConsole, sandboxApiPath } from "@/lib/bank/browser";
import { isApprovalAnswer, type ApprovalAnswer } from "@/lib/approvals/codes";

export interface BankRequest {
  method: "POST" | "PUT" | "PATCH" | "DELETE";
  /** The bank path (`/webhook/webhook_1`); sent to `/api/bank<path>`, so the proxy's permission, validation and audit apply. */
  path: string;
  /**
   * `sandbox`: the sandbox bank's control API, `/api/sandbox<path>` (docs/sandbox-control.md), which the console serves
   * with its own permissions and audit since the proxy carries only the production contract. `bulk`: the console's
   * bulk actions, `/api/bulk<path>` (lib/bulk), which send each row through the proxy on the server.
   */
  api?: "bank" | "sandbox" | "bulk";
  /** Sent as JSON; a file (a snapshot to restore) is sent as it is. */
  body?: unknown;
}

/**
 * The ONE way a console page changes something at the bank: a TanStack mutation over the proxy that, once the bank
 * answered, invalidates exactly the `bankKeys` the action names and refreshes the server-rendered parts of the page
 * (the History panel reads the audit trail on the server). Pessimistic: nothing is shown as done before the bank said so.
 * Where four-eyes holds the change (202 `{approval}`), `awaitingApproval` names the request instead.
 */
export function useBankAction<Variables = void, Result = unknown>({
  request,
  invalidates,
  onSuccess,
}: {
  request(variables: Variables): BankRequest;
  /** The cached answers this change makes stale, built with `bankKeys` only. */
  invalidates(environment: Environment, variables: Variables, result: Result): QueryKey[];
  onSuccess?(result: Result, variables: Variables): void;
}) {
  const { environment } = useConsoleSession();
  const queryClient = useQueryClient();
  const router = useRouter();
  const mutation = useMutation<Result, Error, Variables>({
    mutationFn: (variables) => {
      const { method, path, api = "bank", body } = request(variables);
      const url = api === "sandbox" ? sandboxApiPath(path) : api === "bulk" ? `/api/bulk${path}` : bankApiPath(path);
      return fetchConsole<Result>(url, { method, ...(body === undefined ? {} : { body: body instanceof Blob ? body : JSON.stringify(body) }) });
    },
    onSuccess: async (result, variables) => {
      // Held for approval (202, docs/approvals.md): nothing changed at the bank yet, so nothing is stale and the
      // caller's "done" does not run; the page shows `awaitingApproval` instead. The timeline shows the request.
      if (isApprovalAnswer(result)) return router.refresh();
      onSuccess?.(result, variables);
      await Promise.all(invalidates(environment, variables, result).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      router.refresh();
    },
  });
  const data: unknown = mutation.data;
  /** The change request this action became where four-eyes holds (shown with components/approvals/awaiting-approval.tsx). */
  const awaitingApproval: ApprovalAnswer["approval"] | null = mutation.isSuccess && isApprovalAnswer(data) ? data.approval : null;
  return Object.assign(mutation, { awaitingApproval });
}
