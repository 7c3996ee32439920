"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useCallback, useState } from "react";
import { ConsoleApiError } from "@/lib/bank/browser";
import { readBankObject } from "@/lib/bank/queries";
import { bankKeys } from "@/lib/bank/query-keys";
import { inSentence } from "@/lib/format";
import { detailHref, resourceForId, resourceRouteList } from "@/lib/resources/routes";
import { useConsoleSession } from "./providers";

export type OpenByIdStatus = { state: "idle" } | { state: "checking"; id: string } | { state: "failed"; message: string };

const idle: OpenByIdStatus = { state: "idle" };

/**
 * Opens the detail page of any pasted id: the prefix says which resource it is (`ach_` an ACH transfer), the bank
 * says whether it exists. Unknown prefixes and missing objects are reported instead of opening a not-found page; the
 * object read on the way is put in the query cache, so the detail page opens without a second request.
 */
export function useOpenById(onOpened?: () => void) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const { environment } = useConsoleSession();
  const [status, setStatus] = useState<OpenByIdStatus>(idle);
  // Stable, and a no-op when already idle: callers reset it from effects.
  const reset = useCallback(() => setStatus(idle), []);

  async function open(input: string) {
    const id = input.trim();
    if (!id) return;
    const definition = resourceForId(id);
    if (!definition) {
      const known = resourceRouteList.map((candidate) => candidate.idPrefix).join(", ");
      setStatus({ state: "failed", message: `"${id}" does not start with a known id prefix (${known}).` });
      return;
    }
    setStatus({ state: "checking", id });
    try {
      const object = await readBankObject(definition.name, id);
      queryClient.setQueryData(bankKeys.detail(environment, definition.name, id), object);
      setStatus(idle);
      onOpened?.();
      router.push(detailHref(definition.name, id));
    } catch (error) {
      const message =
        error instanceof ConsoleApiError && error.status === 404
          ? `No ${inSentence(definition.singular)} with id ${id}.`
          : error instanceof ConsoleApiError && error.status === 400
            ? `"${id}" is not a valid ${inSentence(definition.singular)} id: ${error.message}`
            : `Could not look up ${id}: ${error instanceof Error ? error.message : String(error)}`;
      setStatus({ state: "failed", message });
    }
  }

  return { open, status, reset };
}
