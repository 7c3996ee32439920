"use client";

import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useConsoleSession } from "@/components/console/providers";
import type { Environment } from "@/lib/credentials/environments";
import { bankApiPath, fetchConsole } from "./browser";

export interface BankRequest {
  method: "POST" | "PATCH" | "DELETE";
  /** The bank path (`/webhook/webhook_1`); sent to `/api/bank<path>`, so the proxy's permission, validation and audit apply. */
  path: string;
  body?: unknown;
}

/**
 * The ONE way a console page changes something at the bank: a TanStack mutation over the proxy that, once the bank
 * answered, invalidates exactly the `bankKeys` the action names and refreshes the server-rendered parts of the page
 * (the History panel reads the audit trail on the server). Pessimistic: nothing is shown as done before the bank said so.
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
  return useMutation<Result, Error, Variables>({
    mutationFn: (variables) => {
      const { method, path, body } = request(variables);
      return fetchConsole<Result>(bankApiPath(path), { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    },
    onSuccess: async (result, variables) => {
      onSuccess?.(result, variables);
      await Promise.all(invalidates(environment, variables, result).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      router.refresh();
    },
  });
}
